// Every dependency edge with its listing order and element id (kg_tools.closure).
MATCH (a:Tool)-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(b:Tool)
RETURN a.name AS source, b.name AS target, coalesce(r.ord, 0) AS ord, elementId(r) AS id
