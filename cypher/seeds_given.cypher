// Fragment: seeds given by name (after a rerank), in the given order; a seed's `catalog`, when given,
// picks the tool of that catalog (the same name may be in several).
UNWIND range(0, size($seeds) - 1) AS i
MATCH (node:Tool {name: $seeds[i].name})
WHERE $seeds[i].catalog IS NULL OR node.catalog = $seeds[i].catalog
WITH node, $seeds[i].score AS score, i
ORDER BY i
