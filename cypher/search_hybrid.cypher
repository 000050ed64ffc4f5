// Fragment: hybrid search. Each leg is min-max normalised over its own candidates, then fused:
// $fusion = 'alpha' -> alpha * vector + (1 - alpha) * fulltext; 'rrf' -> sum of 1 / ($rrf_k + rank).
CALL () {
  CALL db.index.vector.queryNodes($vector_index, $candidates, $embedding) YIELD node, score
  WITH collect({node: node, score: score}) AS rows
  RETURN rows, 'vector' AS leg
  UNION ALL
  CALL db.index.fulltext.queryNodes($fulltext_index, $lucene_query, {limit: $candidates}) YIELD node, score
  WITH collect({node: node, score: score}) AS rows
  RETURN rows, 'fulltext' AS leg
}
WITH leg, rows,
     reduce(m = 0.0, r IN rows | CASE WHEN r.score > m THEN r.score ELSE m END) AS top,
     reduce(m = 1.0e9, r IN rows | CASE WHEN r.score < m THEN r.score ELSE m END) AS bottom
UNWIND range(0, size(rows) - 1) AS i
WITH rows[i].node AS hit, leg, i + 1 AS rank,
     CASE WHEN top > bottom THEN (rows[i].score - bottom) / (top - bottom) ELSE 1.0 END AS normalised
WITH hit,
     sum(CASE WHEN $fusion = 'rrf' THEN 1.0 / ($rrf_k + rank)
              WHEN leg = 'vector' THEN $alpha * normalised
              ELSE (1.0 - $alpha) * normalised END) AS score
