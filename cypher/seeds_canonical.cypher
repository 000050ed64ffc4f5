// Fragment: search hits -> seeds. Merged tools map to their canonical tool (MERGED_INTO),
// duplicates keep their best score; optional catalog filter; best k first.
WITH hit, score
WHERE $catalog IS NULL OR hit.catalog = $catalog
OPTIONAL MATCH (hit)-[:MERGED_INTO]->(canonical:Tool)
WITH coalesce(canonical, hit) AS node, max(score) AS score
ORDER BY score DESC, node.name
LIMIT $k
