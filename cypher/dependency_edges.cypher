// Every dependency edge with its listing order (bench: the in-process GRTF baseline).
MATCH (a:Tool)-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(b:Tool)
RETURN a.name AS source, b.name AS target, type(r) AS type, coalesce(r.ord, 0) AS ord
