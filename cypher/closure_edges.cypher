// The dependency edges inside the catalogs $catalogs with what orders them (kg_tools.closure.edge_key) and
// their element id. Closures are catalog-internal: an edge between two catalogs (left by an older
// version) is not followed.
MATCH (a:Tool)-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(b:Tool)
WHERE a.catalog IN $catalogs AND b.catalog = a.catalog
RETURN a.catalog AS catalog, a.name AS source, b.name AS target, type(r) AS type, coalesce(r.ord, 0) AS ord,
       r.parameter_name AS parameter_name, r.reason AS reason, elementId(r) AS id
