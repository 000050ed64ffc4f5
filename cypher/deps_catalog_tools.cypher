// Tools whose dependencies may be inferred (one catalog, or all): name, catalog, original spec.
MATCH (t:Tool)
WHERE $catalog IS NULL OR t.catalog = $catalog
RETURN t.name AS name, t.catalog AS catalog, t.spec AS spec
ORDER BY t.catalog, t.name
