// Every dependency inference run, newest first, with the number of its edges still in the graph.
MATCH (r:DependencyRun)
RETURN properties(r) AS run,
       COUNT { MATCH (:Tool)-[e:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(:Tool) WHERE e.inferred = true AND e.run = r.id } AS edges_in_graph
ORDER BY r.created DESC, r.id
