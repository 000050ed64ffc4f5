// One merge run by id (null properties when it does not exist).
OPTIONAL MATCH (r:MergeRun {id: $run_id})
RETURN properties(r) AS run
