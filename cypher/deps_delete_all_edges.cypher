// Delete every dependency edge from tools of one catalog (eval deps: "remove every edge, infer").
MATCH (a:Tool)-[r:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(:Tool)
WHERE $catalog IS NULL OR a.catalog = $catalog
DELETE r
