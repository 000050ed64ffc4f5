// A tool's direct dependencies (kg_tools.ogm.Tool.dependencies): every typed edge out of it, in
// listing order (hand-written edges first, inferred ones from ord 1000).
MATCH (t:Tool {catalog: $catalog, name: $name})-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(d:Tool)
RETURN type(r) AS type, r, d
ORDER BY r.ord, d.name, type(r)
