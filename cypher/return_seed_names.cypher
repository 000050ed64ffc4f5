// Fragment: the seeds' names and scores only, best first (the default path when the seed cache
// knows the candidates: kg_tools/retrieval/seed_cache.py builds the rest of each row). One row,
// `seeds`: a Bolt message per seed costs the driver more than the list (~15 seeds per request).
RETURN collect({name: node.name, catalog: node.catalog, score: score}) AS seeds
