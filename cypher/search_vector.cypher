// Fragment: vector leg. Yields `hit, score` (score = Neo4j's cosine score in [0, 1]).
// HNSW is approximate: $candidates (>= 50) are asked for, the caller cuts to k.
CALL db.index.vector.queryNodes($vector_index, $candidates, $embedding) YIELD node AS hit, score
