// Fragment: hybrid search. Each leg is min-max normalised over its own candidates, then fused:
// $fusion = 'alpha' -> alpha * vector + (1 - alpha) * fulltext; 'rrf' -> sum of 1 / ($rrf_k + rank).
// {vector_leg} and {fulltext_leg} are the leg fragments (search_vector[_catalog], search_fulltext[_catalog]),
// filled in by kg_tools/retrieval/queries.py; each yields `hit, score`.
CALL () {
  {vector_leg}
  WITH collect({node: hit, score: score}) AS rows
  RETURN rows, 'vector' AS leg
  UNION ALL
  {fulltext_leg}
  WITH collect({node: hit, score: score}) AS rows
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
