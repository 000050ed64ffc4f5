// A large replace_all (eval, bench): at most $limit of the nodes delete_all_tools removes, per
// transaction (their relationships went before in batches: delete_all_relationships_batch).
MATCH (n)
WHERE n:Tool OR n:MergeRun OR n:Question OR n:Catalog
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(n) AS deleted
