// Every dependency edge with what orders it (kg_tools.closure.edge_key) and its element id; tools are
// (catalog, name). New writes keep edges inside a catalog; an edge between catalogs (written by an older
// version, or moved by hand) is followed like any other.
MATCH (a:Tool)-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(b:Tool)
RETURN a.catalog AS source_catalog, a.name AS source, b.catalog AS target_catalog, b.name AS target,
       type(r) AS type, coalesce(r.ord, 0) AS ord, r.parameter_name AS parameter_name, r.reason AS reason,
       elementId(r) AS id
