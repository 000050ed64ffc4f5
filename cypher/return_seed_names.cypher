// Fragment: the seeds' names and scores only, best first (the default path when the seed cache
// knows the candidates: kg_tools/retrieval/seed_cache.py builds the rest of each row).
RETURN node.name AS name, node.catalog AS catalog, score
