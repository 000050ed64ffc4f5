// One bounded batch of precomputed closures (kg_tools/closure.py) of the pending version's tools.
MATCH (c:Catalog {name: $catalog}) WHERE c.pending = $version
SET c.pending_at = $now
WITH c
UNWIND $rows AS row
MATCH (t:Tool {catalog: $catalog, name: row.name}) WHERE t.version = $version
SET t.closure = row.closure, t.closure_via = row.via
RETURN count(t) AS written
