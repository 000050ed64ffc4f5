// Fragment: vector leg restricted to ONE catalog ($catalog), exact: the ranking is that of the
// catalog alone, whatever else the graph holds (Neo4j 5.26 cannot filter inside the vector index).
// A catalog of at most $exact_scan_max tools is scanned (cosine over its own nodes, found through
// the tool_catalog index). A larger one first asks the index for $widen x $candidates nearest tools
// and keeps the catalog's hits; when fewer than $candidates of them are in that pool, the catalog's
// size decides a second pool widened by the graph's size over the catalog's, and when even that holds
// fewer than min($candidates, catalog size) the catalog is scanned. Yields `hit, score` (score in
// [0, 1], the index's cosine score).
// Work is bounded by what is needed: the catalog is counted only up to $exact_scan_max + 1 unless
// the first pool falls short (counting a 100,000-tool catalog per request cost ~10 ms, and the scan
// branch's index seek used to run even when its filter then dropped every row: the UNWINDs below
// make both seeks depend on the decision, so the planner cannot run them first).
CALL () {
  MATCH (c:Tool) WHERE c.catalog = $catalog
  WITH c LIMIT $exact_scan_max + 1
  RETURN count(c) AS at_least
}
WITH at_least > $exact_scan_max AS large
CALL (large) {
  WITH large WHERE large
  CALL db.index.vector.queryNodes($vector_index, toInteger(ceil($widen * $candidates)), $embedding) YIELD node, score
  WITH node, score WHERE node.catalog = $catalog
  RETURN collect({hit: node, score: score})[..$candidates] AS first
}
WITH large, first, large AND size(first) >= $candidates AS from_first
CALL (large, from_first) {
  UNWIND CASE WHEN large AND NOT from_first THEN [$catalog] ELSE [] END AS counted
  MATCH (c:Tool) WHERE c.catalog = counted
  RETURN count(c) AS in_catalog
}
CALL (in_catalog) {
  WITH in_catalog, COUNT { MATCH (:Tool) } AS total WHERE in_catalog > 0
  CALL db.index.vector.queryNodes($vector_index,
       CASE WHEN total < toInteger(ceil($widen * $candidates * total / toFloat(in_catalog))) THEN total
            ELSE toInteger(ceil($widen * $candidates * total / toFloat(in_catalog))) END, $embedding)
       YIELD node, score
  WITH node, score WHERE node.catalog = $catalog
  RETURN collect({hit: node, score: score})[..$candidates] AS second
}
WITH CASE WHEN from_first THEN first ELSE second END AS pooled,
     from_first OR in_catalog > 0 AND
       size(second) >= CASE WHEN in_catalog < $candidates THEN in_catalog ELSE $candidates END AS from_pool
CALL (pooled, from_pool) {
  WITH pooled WHERE from_pool
  UNWIND pooled AS p
  RETURN p.hit AS hit, p.score AS score
  UNION ALL
  UNWIND CASE WHEN from_pool THEN [] ELSE [$catalog] END AS scanned
  MATCH (hit:Tool) WHERE hit.catalog = scanned AND hit.embedding IS NOT NULL
  WITH hit, vector.similarity.cosine(hit.embedding, $embedding) AS score
  ORDER BY score DESC LIMIT $candidates
  RETURN hit, score
}
WITH hit, score
