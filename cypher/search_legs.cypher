// Fragment: the default search's two legs as the indexes return them, one row: each leg's hits as
// elementIds and scores, in the index's order. kg_tools/retrieval/hit_index.py merges them and maps the
// hits to their canonical seeds in Python, as cypher/search_boost.cypher + seeds_canonical.cypher do
// in Neo4j (the same seeds, scores and order; ~0.35 ms less per request, docs/speed.md "Seventh round").
// {vector_leg} and {fulltext_leg} are filled in by kg_tools/retrieval/queries.py.
CALL () {
  {vector_leg}
  RETURN collect(elementId(hit)) AS vector_ids, collect(score) AS vector_scores
}
CALL () {
  {fulltext_leg}
  RETURN collect(elementId(hit)) AS text_ids, collect(score) AS text_scores
}
RETURN vector_ids, vector_scores, text_ids, text_scores
