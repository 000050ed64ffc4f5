// A large replace_all (eval, bench), before delete_all_batch: at most $limit relationships of the nodes
// it removes (tools, merge runs, enrichment questions, catalog nodes) per transaction.
MATCH (n)-[r]-()
WHERE n:Tool OR n:MergeRun OR n:Question OR n:Catalog
WITH DISTINCT r LIMIT $limit
DELETE r
RETURN count(r) AS relationships
