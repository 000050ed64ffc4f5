// Undo one run: restore the canonical tools, delete the run's MERGED_INTO edges and the run node.
MATCH (r:MergeRun {id: $run_id})
CALL (r) {
  UNWIND $restore AS row
  MATCH (r)-[:UPDATED]->(c:Tool {name: row.name})  // the tool the run rewrote, not a same-named one elsewhere
  SET c.description = row.description, c.spec = row.spec, c.param_text = row.param_text
  // a merge re-embeds the canonical tool (its new document), undo restores its vector; a run
  // stored before either has no vector here and leaves the tool's as it is
  SET c.embedding = coalesce(row.embedding, c.embedding), c.embedding_model = coalesce(row.embedding_model, c.embedding_model)
  RETURN count(*) AS restored
}
CALL (r) {
  MATCH (:Tool)-[m:MERGED_INTO {run: r.id}]->(:Tool)
  DELETE m
  RETURN count(*) AS unlinked
}
DETACH DELETE r
RETURN restored, unlinked
