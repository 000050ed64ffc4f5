// Tools of a plan that are missing or already take part in a merge (a stale plan); of the plan's catalog
// when it has one (a tool is (catalog, name)).
UNWIND $names AS name
OPTIONAL MATCH (t:Tool {name: name}) WHERE $catalog IS NULL OR t.catalog = $catalog
WITH name, t
WHERE t IS NULL OR (t)-[:MERGED_INTO]-()
RETURN name, t IS NULL AS missing
