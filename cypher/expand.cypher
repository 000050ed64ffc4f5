// Fragment: Graph RAG-Tool Fusion expansion. Input rows `node, score` = seeds, best first.
// {paths} returns per seed its reachable subgraph (`reach`, cypher/expand_paths.cypher), which
// kg_tools/retrieval/expansion.py turns into `deps`: paths start at the seed or at a tool merged into
// it and never visit a tool twice (simple paths, so cycles end); every reached tool maps to its
// canonical tool. Depth-first order = paths sorted by their per-edge keys [indirect-penalty, listing
// order, tie-break]; the first occurrence of each tool wins (expand_paths_enumerated.cypher says it in Cypher).
WITH collect({node: node, score: score}) AS seeds
UNWIND range(0, size(seeds) - 1) AS rank
WITH rank, seeds[rank].node AS seed, seeds[rank].score AS score
CALL (seed) {
{paths}
}
RETURN rank, seed.name AS name, seed.catalog AS catalog, seed.func_type AS func_type, seed.spec AS spec, score,
       [(m:Tool)-[:MERGED_INTO]->(seed) | m.name] AS members, deps, reach
ORDER BY rank
