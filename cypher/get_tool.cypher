// One tool by name (GET /v1/tools/{name}); no row when it does not exist.
MATCH (t:Tool {name: $name})
WHERE t.version IS NULL OR EXISTS { MATCH (v:Catalog {name: t.catalog}) WHERE v.current >= t.version }
RETURN t.name AS name, t.func_type AS func_type, t.catalog AS catalog, t.description AS description, t.spec AS spec
