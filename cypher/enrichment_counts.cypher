// Enrichment coverage: tools enriched (current spec) out of all, and enrichment vectors (of the catalog's
// tools when $catalog is given).
MATCH (t:Tool)
WHERE $catalog IS NULL OR t.catalog = $catalog
WITH count(t) AS tools,
     count(CASE WHEN t.enrichment_spec_hash = t.spec_hash THEN 1 END) AS enriched
OPTIONAL MATCH (q:Question)
WHERE $catalog IS NULL OR EXISTS { (q)-[:ASKS_FOR]->(:Tool {catalog: $catalog}) }
RETURN tools, enriched, count(q) AS vectors
