// Fragment: vector leg restricted to the catalogs $catalogs (a list), exact: the ranking is that of
// those catalogs alone, whatever else the graph holds (Neo4j 5.26 cannot filter inside the vector index).
// A catalog of at most $exact_scan_max tools is scanned (cosine over its own nodes, found through
// the tool_catalog index). A larger one first asks the index for $widen x $candidates nearest tools
// and keeps the catalog's hits; when fewer than $candidates of them are in that pool, a second pool is
// sized by the first one's hit rate (a catalog of 100,000 tools whose vectors lie farther from the
// query than a small one's had 29 of the 100 nearest: sized by its share of the graph, the second
// pool fell short too and the catalog was scanned, 1.6 s per request), and when even that holds
// fewer than $candidates the catalog is scanned. The catalog's hits among the nearest tools of the
// whole graph are its own nearest, so the result is that of the catalog alone either way. Yields
// `hit, score` (score in [0, 1], the index's cosine score).
// Work is bounded by what is needed: the catalog is counted only up to $exact_scan_max + 1 unless
// the first pool falls short (counting a 100,000-tool catalog per request cost ~10 ms, and the scan
// branch's index seek used to run even when its filter then dropped every row: the UNWINDs below
// make both seeks depend on the decision, so the planner cannot run them first).
CALL () {
  MATCH (c:Tool) WHERE c.catalog IN $catalogs
  WITH c LIMIT $exact_scan_max + 1
  RETURN count(c) AS at_least
}
WITH at_least > $exact_scan_max AS large
CALL (large) {
  WITH large WHERE large
  CALL db.index.vector.queryNodes($vector_index, toInteger(ceil($widen * $candidates)), $embedding) YIELD node, score
  WITH node, score WHERE node.catalog IN $catalogs
  RETURN collect({hit: node, score: score}) AS first_hits
}
WITH large, first_hits[..$candidates] AS first, size(first_hits) AS in_first,
     large AND size(first_hits) >= $candidates AS from_first
CALL (large, from_first, in_first) {
  UNWIND CASE WHEN large AND NOT from_first AND in_first = 0 THEN $catalogs ELSE [] END AS counted
  MATCH (c:Tool) WHERE c.catalog = counted
  RETURN count(c) AS in_catalog
}
CALL (large, from_first, in_first, in_catalog) {
  WITH in_first, in_catalog, COUNT { MATCH (:Tool) } AS total WHERE large AND NOT from_first
  // the second pool: at least 16 times the first; larger when the first one's hit rate (or, with no
  // hit at all, the catalog's share of the graph) says a pool that holds $candidates of its tools is
  WITH total, toInteger(ceil(CASE WHEN in_first > 0
         THEN $widen * $widen * $candidates * $candidates / toFloat(in_first)
         ELSE $widen * $candidates * total / toFloat(CASE WHEN in_catalog > 0 THEN in_catalog ELSE 1 END) END))
       AS estimate, toInteger(ceil(16 * $widen * $candidates)) AS at_least
  WITH total, CASE WHEN estimate > at_least THEN estimate ELSE at_least END AS wanted
  CALL db.index.vector.queryNodes($vector_index, CASE WHEN total < wanted THEN total ELSE wanted END, $embedding)
       YIELD node, score
  WITH node, score WHERE node.catalog IN $catalogs
  RETURN collect({hit: node, score: score})[..$candidates] AS second
}
WITH CASE WHEN from_first THEN first ELSE second END AS pooled,
     from_first OR large AND size(second) >= $candidates AS from_pool
CALL (pooled, from_pool) {
  WITH pooled WHERE from_pool
  UNWIND pooled AS p
  RETURN p.hit AS hit, p.score AS score
  UNION ALL
  UNWIND CASE WHEN from_pool THEN [] ELSE $catalogs END AS scanned
  MATCH (hit:Tool) WHERE hit.catalog = scanned AND hit.embedding IS NOT NULL
  WITH hit, vector.similarity.cosine(hit.embedding, $embedding) AS score
  ORDER BY score DESC LIMIT $candidates
  RETURN hit, score
}
WITH hit, score
