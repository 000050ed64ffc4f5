// Fragment: vector search with a lexical boost (mode 'hybrid-boost', the default). Every hit of either
// leg scores its vector score (Neo4j's (1 + cos) / 2; a hit of the fulltext leg alone gets the vector
// leg's lowest) + $boost x its BM25 score min-max normalised over the fulltext leg's hits. The scale
// stays the vector score's, so the offline rescoring (kg_tools/retrieval/ordering.py) applies as in
// vector mode. {vector_leg} and {fulltext_leg} are filled in by kg_tools/retrieval/queries.py.
CALL () {
  {vector_leg}
  WITH collect({node: hit, score: score}) AS rows
  RETURN rows, 'vector' AS leg
  UNION ALL
  {fulltext_leg}
  WITH collect({node: hit, score: score}) AS rows
  RETURN rows, 'fulltext' AS leg
}
WITH collect({leg: leg, rows: rows}) AS legs
WITH [l IN legs WHERE l.leg = 'vector'][0].rows AS vector_rows, [l IN legs WHERE l.leg = 'fulltext'][0].rows AS text_rows
WITH vector_rows, text_rows,
     reduce(m = 1.0e9, r IN vector_rows | CASE WHEN r.score < m THEN r.score ELSE m END) AS floor,
     reduce(m = 0.0, r IN text_rows | CASE WHEN r.score > m THEN r.score ELSE m END) AS top,
     reduce(m = 1.0e9, r IN text_rows | CASE WHEN r.score < m THEN r.score ELSE m END) AS bottom
UNWIND [r IN vector_rows | {node: r.node, vector: r.score, text: 0.0}] +
       [r IN text_rows | {node: r.node, vector: null,
                          text: CASE WHEN top > bottom THEN (r.score - bottom) / (top - bottom) ELSE 1.0 END}] AS r
WITH r.node AS hit, max(r.vector) AS vector, sum(r.text) AS text, min(floor) AS floor
WITH hit, coalesce(vector, CASE WHEN floor > 1.0 THEN 0.0 ELSE floor END) + $boost * text AS score
