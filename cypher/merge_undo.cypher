// Undo one run: restore the canonical tools, delete the run's MERGED_INTO edges and the run node.
MATCH (r:MergeRun {id: $run_id})
CALL (r) {
  UNWIND $restore AS row
  MATCH (c:Tool {name: row.name})
  SET c.description = row.description, c.spec = row.spec, c.param_text = row.param_text
  RETURN count(*) AS restored
}
CALL (r) {
  MATCH (:Tool)-[m:MERGED_INTO {run: r.id}]->(:Tool)
  DELETE m
  RETURN count(*) AS unlinked
}
DETACH DELETE r
RETURN restored, unlinked
