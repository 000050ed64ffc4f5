// Tools whose dependencies may be inferred (one catalog, or all): name, catalog, original spec, place in the
// load (null for a tool written by a PUT). Not the tools of a catalog version being loaded
// (kg_tools/staged_load.py), which readers do not see yet.
MATCH (t:Tool)
WHERE ($catalog IS NULL OR t.catalog = $catalog)
  AND (t.version IS NULL OR EXISTS { MATCH (v:Catalog {name: t.catalog}) WHERE v.current >= t.version })
RETURN t.name AS name, t.catalog AS catalog, t.spec AS spec, t.position AS position
ORDER BY t.catalog, t.name
