// One observation (kg_tools.deps.observed.promote), read inside the promoting transaction.
MATCH (c:Tool {name: $consumer})-[o:OBSERVED_FLOW {parameter_name: $parameter_name}]->(p:Tool {name: $provider})
WHERE ($consumer_catalog IS NULL OR c.catalog = $consumer_catalog)
  AND ($provider_catalog IS NULL OR p.catalog = $provider_catalog)
RETURN o.count AS count, size(o.sessions) AS sessions, o.run AS run, c.catalog AS catalog,
       EXISTS { (c)-[:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(p) } AS has_edge
