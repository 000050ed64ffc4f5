// Every dependency edge between tools of one catalog (or all), hand-written or inferred, in listing order;
// not those of a catalog version being loaded (only new tools are staged, with their outgoing edges).
MATCH (a:Tool)-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(b:Tool)
WHERE ($catalog IS NULL OR (a.catalog = $catalog AND b.catalog = $catalog))
  AND (a.version IS NULL OR EXISTS { MATCH (v:Catalog {name: a.catalog}) WHERE v.current >= a.version })
RETURN a.name AS source, b.name AS target, type(r) AS type, r.parameter_name AS parameter_name,
       coalesce(r.inferred, false) AS inferred
ORDER BY source, coalesce(r.ord, 0)
