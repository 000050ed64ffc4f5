// One bounded batch of the hand-written edges FROM new tools of the pending version (sources not
// visible yet, so no reader walks them). Returns how many edges exist now: fewer than the batch
// means a target vanished meanwhile (the load is given up).
MATCH (c:Catalog {name: $catalog}) WHERE c.pending = $version
SET c.pending_at = $now
WITH c
UNWIND $edges AS e
MATCH (a:Tool {catalog: $catalog, name: e.source}), (b:Tool {catalog: $catalog, name: e.target})
MERGE (a)-[r:$(e.type) {ord: e.ord}]->(b)
SET r.reason = e.reason, r.parameter_name = e.parameter_name, r.original_type = e.original_type
RETURN count(r) AS written
