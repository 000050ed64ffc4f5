// Deleting a catalog, after catalog_detach: at most $limit relationships of its tools per transaction
// (dependency edges, MERGED_INTO, PROVIDES ...), so that the DETACH DELETE of its tools that follows
// (catalog_delete_batch) holds few relationships in one transaction. ASKS_FOR stays: the questions that
// ask only for a deleted tool are found through it and deleted with the tool.
MATCH (t:Tool)-[r]-()
WHERE t.catalog = $catalog AND type(r) <> 'ASKS_FOR'
WITH DISTINCT r LIMIT $limit
DELETE r
RETURN count(r) AS relationships
