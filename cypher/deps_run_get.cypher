// One dependency inference run by id (null when there is none).
OPTIONAL MATCH (r:DependencyRun {id: $run_id})
RETURN properties(r) AS run
