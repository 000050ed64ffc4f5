// The end of an apply (in its last transaction, with the closures of its sources): the run is `applied`,
// with the number of its edges in the graph.
MATCH (run:DependencyRun {id: $run_id})
SET run.status = 'applied',
    run.edges = COUNT {
      MATCH (:Tool)-[e:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(:Tool)
      WHERE e.inferred = true AND e.run = run.id
    }
RETURN run.edges AS edges
