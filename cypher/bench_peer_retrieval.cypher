// `kg-tools bench compare`: the retrieval_query of neo4j-graphrag's VectorCypherRetriever (the peer), run
// after its vector search (`node`, `score`): one dependency traversal of each seed, up to 5 edges, the
// nearest first, at most 10 names.
OPTIONAL MATCH p = (node)-[:TOOL_DIRECTLY_DEPENDS_ON|TOOL_INDIRECTLY_DEPENDS_ON|PARAMETER_DIRECTLY_DEPENDS_ON|PARAMETER_INDIRECTLY_DEPENDS_ON*1..5]->(d:Tool)
WITH node, score, d, min(length(p)) AS hops
ORDER BY hops, d.name
WITH node, score, [x IN collect(d.name) WHERE x IS NOT NULL][..10] AS deps
RETURN node.name AS name, score, deps
ORDER BY score DESC, name
