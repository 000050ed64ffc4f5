// The tools a new merge plan may touch: not merged, not canonical for an earlier run.
MATCH (t:Tool)
WHERE ($catalog IS NULL OR t.catalog = $catalog) AND NOT (t)-[:MERGED_INTO]-()
RETURN t.name AS name, t.spec AS spec, t.description AS description, t.embedding IS NOT NULL AS embedded
ORDER BY name
