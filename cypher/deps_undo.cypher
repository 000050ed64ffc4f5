// Undo one inference run: delete its inferred edges and the run node; hand-written edges are untouched.
MATCH (run:DependencyRun {id: $run_id})
CALL (run) {
  MATCH (:Tool)-[e:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(:Tool)
  WHERE e.inferred = true AND e.run = run.id
  DELETE e
  RETURN count(*) AS removed
}
DETACH DELETE run
RETURN removed
