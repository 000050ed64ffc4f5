// The vectors of a catalog's new tools, staged under the pending version $version in batches larger
// than the tool batches (KG_TOOLS_VECTOR_WRITE_BATCH_SIZE): Neo4j's vector index (Lucene) gains one
// segment per committing transaction and every vector query searches each segment, so 100,000 tools
// written 500 at a time left ~200 segments. No row when the version is no longer ours.
MATCH (c:Catalog {name: $catalog}) WHERE c.pending = $version
SET c.pending_at = $now
WITH c
UNWIND $rows AS row
MATCH (t:Tool {catalog: $catalog, name: row.name})
WHERE t.version = $version
SET t.embedding = row.embedding
RETURN count(t) AS written
