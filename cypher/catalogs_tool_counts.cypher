// Tools and outgoing dependency edges per catalog name on the tools (kg-tools catalogs list).
MATCH (t:Tool)
WITH t.catalog AS name, count(t) AS tools,
     sum(COUNT { (t)-[:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(:Tool) }) AS edges
RETURN name, tools, edges
