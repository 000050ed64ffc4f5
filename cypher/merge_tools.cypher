// The tools a new merge plan may touch: not merged, not canonical for an earlier run, not of a catalog
// version being loaded (kg_tools/staged_load.py: `version` newer than the catalog's `current`).
MATCH (t:Tool)
WHERE ($catalog IS NULL OR t.catalog = $catalog) AND NOT (t)-[:MERGED_INTO]-()
  AND (t.version IS NULL OR EXISTS { MATCH (v:Catalog {name: t.catalog}) WHERE v.current >= t.version })
RETURN t.name AS name, t.catalog AS catalog, t.spec AS spec, t.description AS description, t.embedding IS NOT NULL AS embedded
ORDER BY name
