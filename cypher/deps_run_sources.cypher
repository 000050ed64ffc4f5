// The source tools of one inference run's edges (their expansion changes when the run is undone).
MATCH (a:Tool)-[e:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(:Tool)
WHERE e.inferred = true AND e.run = $run_id
RETURN collect(DISTINCT a.name) AS sources
