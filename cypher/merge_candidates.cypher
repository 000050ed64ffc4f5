// Merge candidates for a batch of tools: each tool's top-$top_k neighbours from the vector index
// with cosine >= $theta. Neo4j's cosine score is (1 + cos) / 2, so cos = 2 * score - 1.
// Tools already merged (either end of a MERGED_INTO) and tools of a catalog version being loaded
// (kg_tools/staged_load.py) take no part in a new plan.
UNWIND $names AS name
MATCH (t:Tool {name: name})
WHERE t.embedding IS NOT NULL AND ($catalog IS NULL OR t.catalog = $catalog)
CALL db.index.vector.queryNodes($vector_index, $top_k + 1, t.embedding) YIELD node, score
WITH t, node, 2.0 * score - 1.0 AS cosine
WHERE node <> t AND cosine >= $theta
  AND ($catalog IS NULL OR node.catalog = $catalog)
  AND NOT (node)-[:MERGED_INTO]-()
  AND (node.version IS NULL OR EXISTS { MATCH (v:Catalog {name: node.catalog}) WHERE v.current >= node.version })
RETURN t.name AS a, node.name AS b, cosine
