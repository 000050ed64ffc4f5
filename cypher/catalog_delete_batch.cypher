// Delete at most $limit tools of one catalog (and the enrichment questions that ask only for them);
// one bounded transaction per call (kg_tools/catalog_store.py loops until 0). Their other relationships were
// deleted before in batches (catalog_delete_edges_batch); DETACH for any written meanwhile.
MATCH (t:Tool) WHERE t.catalog = $catalog
WITH t LIMIT $limit
CALL (t) {
  MATCH (q:Question)-[:ASKS_FOR]->(t)
  WHERE COUNT { (q)-[:ASKS_FOR]->() } = 1
  DETACH DELETE q
}
DETACH DELETE t
RETURN count(*) AS tools
