// Tools and outgoing dependency edges per catalog name on the tools (kg-tools catalogs list); tools
// of a version being loaded (kg_tools/staged_load.py) are not counted until it is switched in.
MATCH (t:Tool)
WHERE t.version IS NULL OR EXISTS { MATCH (v:Catalog {name: t.catalog}) WHERE v.current >= t.version }
WITH t.catalog AS name, count(t) AS tools,
     sum(COUNT { (t)-[:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(:Tool) }) AS edges
RETURN name, tools, edges
