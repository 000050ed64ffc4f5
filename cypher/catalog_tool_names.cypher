// The names of one catalog's tools (eval catalog: what to remove, and whether the catalog is in use).
MATCH (t:Tool) WHERE t.catalog = $catalog
RETURN collect(t.name) AS names
