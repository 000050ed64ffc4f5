// In a load's (or PUT's) writing transaction: the catalog's metadata node (kg_tools/catalog_store.py).
// $source null keeps the stored source; $kind: load | sync | import | put.
MERGE (c:Catalog {name: $catalog})
ON CREATE SET c.created = $now
SET c.source = coalesce($source, c.source, $kind), c.last_load = $now, c.last_load_kind = $kind
