// One batch of an inference run's edges: ordinary dependency relationships marked inferred: true with the
// run id. A pair that already has any dependency edge is left alone (hand-written edges are never touched).
// e.type is one of the four DependencyType values. No row when the run is not pending any more (rolled
// back meanwhile). The run node is only read: the apply's last transaction holds its lock.
MATCH (run:DependencyRun {id: $run_id, status: 'pending'})
CALL (run) {
  UNWIND $edges AS e
  MATCH (a:Tool {name: e.source}), (b:Tool {name: e.target})
  WHERE a.catalog = b.catalog AND (run.catalog = '*' OR a.catalog = run.catalog)
    AND NOT EXISTS { (a)-[:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(b) }
  CREATE (a)-[r:$(e.type)]->(b)
  SET r.reason = e.reason, r.parameter_name = e.parameter_name, r.ord = 1000 + e.ord, r.original_type = e.type,
      r.inferred = true, r.run = run.id, r.confidence = e.confidence, r.method = e.method
  RETURN count(r) AS created
}
RETURN created
