// Count one call's observed flows (kg_tools/deps/observed.py): the consumer's parameter took a value from
// the provider's result. Apart from the dependency edges (retrieval never reads OBSERVED_FLOW); $session
// is a hash of the session id, at most $max_sessions of them are kept per observation. A flow's catalogs, when
// given, pick the tools among same-named ones (a tool is (catalog, name)).
UNWIND $flows AS f
MATCH (c:Tool {name: f.consumer}), (p:Tool {name: f.provider})
WHERE (f.consumer_catalog IS NULL OR c.catalog = f.consumer_catalog)
  AND (f.provider_catalog IS NULL OR p.catalog = f.provider_catalog)
MERGE (c)-[o:OBSERVED_FLOW {parameter_name: f.parameter_name}]->(p)
ON CREATE SET o.count = 0, o.sessions = [], o.first_seen = $now
SET o.count = o.count + 1, o.last_seen = $now,
    o.sessions = CASE WHEN $session IN o.sessions OR size(o.sessions) >= $max_sessions THEN o.sessions
                      ELSE o.sessions + $session END
RETURN c.name AS consumer, p.name AS provider, c.catalog AS consumer_catalog, p.catalog AS provider_catalog,
       o.parameter_name AS parameter_name, o.count AS count,
       size(o.sessions) AS sessions, o.run AS run,
       EXISTS { (c)-[:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(p) } AS has_edge
