// Fragment: depth 0 -- seeds only, same row shape as expand.cypher.
WITH collect({node: node, score: score}) AS seeds
UNWIND range(0, size(seeds) - 1) AS rank
WITH rank, seeds[rank].node AS seed, seeds[rank].score AS score
RETURN rank, seed.name AS name, seed.catalog AS catalog, seed.func_type AS func_type, seed.spec AS spec, score,
       [(m:Tool)-[:MERGED_INTO]->(seed) | m.name] AS members, [] AS deps, null AS reach
ORDER BY rank
