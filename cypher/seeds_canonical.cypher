// Fragment: search hits -> seeds. Merged tools map to their canonical tool (MERGED_INTO),
// duplicates keep their best score; optional catalog filter; best k first. A tool of a catalog
// version not switched in yet (kg_tools/staged_load.py: marked `version`, newer than its
// catalog's `current`) is skipped; settled tools carry no mark, so the check costs nothing then.
WITH hit, score
WHERE ($catalogs IS NULL OR hit.catalog IN $catalogs)
  AND (hit.version IS NULL OR EXISTS { MATCH (v:Catalog {name: hit.catalog}) WHERE v.current >= hit.version })
OPTIONAL MATCH (hit)-[:MERGED_INTO]->(canonical:Tool)
WITH coalesce(canonical, hit) AS node, max(score) AS score
ORDER BY score DESC, node.name
LIMIT $k
