// Promote one observation: a one-edge dependency run (undo with `kg-tools deps undo RUN`, cypher/deps_undo.cypher)
// whose PARAMETER_DIRECTLY_DEPENDS_ON edge is marked observed: true (inferred: true: not hand-written,
// it belongs to its run). The observation keeps the run id, so an undone one is not promoted again.
MATCH (c:Tool {name: $edge.consumer})-[o:OBSERVED_FLOW {parameter_name: $edge.parameter_name}]->(p:Tool {name: $edge.provider})
WHERE ($edge.consumer_catalog IS NULL OR c.catalog = $edge.consumer_catalog)
  AND ($edge.provider_catalog IS NULL OR p.catalog = $edge.provider_catalog)
CREATE (run:DependencyRun)
SET run = $run
CREATE (c)-[r:PARAMETER_DIRECTLY_DEPENDS_ON]->(p)
SET r.reason = $edge.reason, r.parameter_name = $edge.parameter_name, r.ord = 1000,
    r.original_type = 'PARAMETER_DIRECTLY_DEPENDS_ON', r.inferred = true, r.observed = true, r.run = run.id,
    r.confidence = $edge.confidence, r.method = run.method
SET o.run = run.id, o.promoted = $now
