// Fragment: seeds given by name (after a rerank), in the given order.
UNWIND range(0, size($seeds) - 1) AS i
MATCH (node:Tool {name: $seeds[i].name})
WITH node, $seeds[i].score AS score, i
ORDER BY i
