// Fragment: enriched vector search. A tool is found through its own vector or any of its
// enrichment vectors (synthetic questions, expanded description: (:Question)-[:ASKS_FOR]->(:Tool));
// its score is the max over them. Yields `hit, score` like the other search fragments.
CALL () {
  CALL db.index.vector.queryNodes($vector_index, $candidates, $embedding) YIELD node, score
  RETURN node AS hit, score
  UNION ALL
  CALL db.index.vector.queryNodes($question_index, $candidates * $question_candidates_factor, $embedding) YIELD node, score
  MATCH (node)-[:ASKS_FOR]->(tool:Tool)
  RETURN tool AS hit, score
}
WITH hit, max(score) AS score
