// Fragment: vector leg restricted to ONE catalog ($catalog), exact: the ranking is that of the
// catalog alone, whatever else the graph holds (Neo4j 5.26 cannot filter inside the vector index).
// A catalog of at most $exact_scan_max tools is scanned (cosine over its own nodes, found through
// the tool_catalog index). A larger one asks the index for a pool widened by the graph's size over
// the catalog's ($widen x), keeps the catalog's hits, and falls back to the scan when fewer than
// min($candidates, catalog size) of them are in the pool. Yields `hit, score` (score in [0, 1],
// the index's cosine score).
MATCH (c:Tool) WHERE c.catalog = $catalog
WITH count(c) AS in_catalog, COUNT { MATCH (:Tool) } AS total
CALL (in_catalog, total) {
  WITH in_catalog, total WHERE in_catalog > $exact_scan_max
  CALL db.index.vector.queryNodes($vector_index,
       CASE WHEN total < toInteger(ceil($widen * $candidates * total / toFloat(in_catalog))) THEN total
            ELSE toInteger(ceil($widen * $candidates * total / toFloat(in_catalog))) END, $embedding)
       YIELD node, score
  WITH node, score WHERE node.catalog = $catalog
  RETURN collect({hit: node, score: score})[..$candidates] AS pooled
}
WITH in_catalog, pooled,
     in_catalog > $exact_scan_max AND
     size(pooled) >= CASE WHEN in_catalog < $candidates THEN in_catalog ELSE $candidates END AS from_pool
CALL (pooled, from_pool) {
  WITH pooled WHERE from_pool
  UNWIND pooled AS p
  RETURN p.hit AS hit, p.score AS score
  UNION ALL
  WITH from_pool WHERE NOT from_pool
  MATCH (hit:Tool) WHERE hit.catalog = $catalog AND hit.embedding IS NOT NULL
  WITH hit, vector.similarity.cosine(hit.embedding, $embedding) AS score
  ORDER BY score DESC LIMIT $candidates
  RETURN hit, score
}
WITH hit, score
