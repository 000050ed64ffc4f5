// Fragment: the default expansion (all four edge types, depth 5, no preference, nothing dropped,
// d_limit <= the closure size) read from each seed's precomputed closure (kg_tools.closure: the
// same order as expand.cypher, maintained by every write): index seeks, work bounded by d_limit.
// A seed without a closure (written by an older version) falls back to the traversal (its `reach`,
// ordered in Python like expand.cypher's). Same rows.
WITH collect({node: node, score: score}) AS seeds
UNWIND range(0, size(seeds) - 1) AS rank
WITH rank, seeds[rank].node AS seed, seeds[rank].score AS score
CALL (seed) {
  WITH seed WHERE seed.closure IS NOT NULL
  CALL (seed) {
    UNWIND range(0, size(seed.closure) - 1) AS i
    WITH seed, i WHERE i < $d_limit
    // the dependency is the tool the via edge reaches, or the tool it is merged into (kg_tools.closure)
    MATCH ()-[via]->(reached:Tool) WHERE elementId(via) = seed.closure_via[i]
    OPTIONAL MATCH (reached)-[:MERGED_INTO]->(canonical:Tool)
    WITH coalesce(canonical, reached) AS dep, via, i ORDER BY i
    RETURN collect({
             name: dep.name, catalog: dep.catalog, func_type: dep.func_type, spec: dep.spec,
             members: COLLECT { MATCH (m:Tool)-[:MERGED_INTO]->(dep) RETURN m.name },
             via: {from: startNode(via).name, type: type(via),
                   parameter_name: via.parameter_name, reason: via.reason,
                   inferred: coalesce(via.inferred, false) OR coalesce(via.observed, false), confidence: via.confidence}}) AS deps
  }
  RETURN deps, null AS reach
  UNION ALL
  WITH seed WHERE seed.closure IS NULL
  CALL (seed) {
{paths}
  }
  RETURN deps, reach
}
RETURN rank, seed.name AS name, seed.catalog AS catalog, seed.func_type AS func_type, seed.spec AS spec, score,
       [(m:Tool)-[:MERGED_INTO]->(seed) | m.name] AS members, deps, reach
ORDER BY rank
