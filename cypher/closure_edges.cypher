// Every dependency edge with what orders it (kg_tools.closure.edge_key) and its element id.
MATCH (a:Tool)-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(b:Tool)
RETURN a.name AS source, b.name AS target, type(r) AS type, coalesce(r.ord, 0) AS ord,
       r.parameter_name AS parameter_name, r.reason AS reason, elementId(r) AS id
