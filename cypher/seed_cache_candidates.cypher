// Tools that can be a seed of the default retrieval (canonical: not MERGED_INTO another), at most
// $limit: the seed cache warms up only when all of them fit (kg_tools/retrieval/seed_cache.py).
MATCH (t:Tool)
WHERE NOT (t)-[:MERGED_INTO]->(:Tool)
  AND (t.version IS NULL OR EXISTS { MATCH (v:Catalog {name: t.catalog}) WHERE v.current >= t.version })
RETURN t.name AS name, t.catalog AS catalog
LIMIT $limit
