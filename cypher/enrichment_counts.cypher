// Enrichment coverage: tools enriched (current spec) out of all, and enrichment vectors.
MATCH (t:Tool)
WHERE $catalog IS NULL OR t.catalog = $catalog
WITH count(t) AS tools,
     count(CASE WHEN t.enrichment_spec_hash = t.spec_hash THEN 1 END) AS enriched
OPTIONAL MATCH (q:Question)
RETURN tools, enriched, count(q) AS vectors
