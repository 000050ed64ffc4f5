// Tools to enrich: never enriched, spec changed since, or enrichment vectors from another embedder
// (or all with $force); optional catalog filter.
MATCH (t:Tool)
WHERE ($catalog IS NULL OR t.catalog = $catalog)
  AND ($force OR t.enrichment_spec_hash IS NULL OR t.enrichment_spec_hash <> t.spec_hash
       OR t.enrichment_embedding_model IS NULL OR t.enrichment_embedding_model <> $embedding_model)
RETURN t.name AS name, t.catalog AS catalog, t.description AS description, t.spec AS spec, t.spec_hash AS spec_hash
ORDER BY t.name, t.catalog
