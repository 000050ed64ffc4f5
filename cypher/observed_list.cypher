// Every observed flow (kg-tools deps observed), most recently seen first: counts, its run if promoted,
// whether that run's edge is still in the graph, and whether another dependency edge links the pair.
MATCH (c:Tool)-[o:OBSERVED_FLOW]->(p:Tool)
RETURN c.name AS consumer, p.name AS provider, c.catalog AS consumer_catalog, p.catalog AS provider_catalog,
       o.parameter_name AS parameter_name, o.count AS count,
       size(o.sessions) AS sessions, o.first_seen AS first_seen, o.last_seen AS last_seen, o.run AS run,
       o.promoted AS promoted,
       EXISTS { (c)-[e:PARAMETER_DIRECTLY_DEPENDS_ON]->(p) WHERE o.run IS NOT NULL AND e.run = o.run AND e.observed = true } AS promoted_edge,
       EXISTS { (c)-[e:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON]->(p)
                WHERE o.run IS NULL OR e.run IS NULL OR e.run <> o.run } AS has_edge
ORDER BY o.last_seen DESC, consumer, provider, parameter_name
