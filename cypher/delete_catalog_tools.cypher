// --replace: remove the tools of ONE catalog that the new load does not contain (other catalogs are
// untouched), with the enrichment questions that ask only for them. Tools kept are rewritten by the load.
// Returns the deleted names and their canonical tools (`gone`: the closures to recompute start there).
OPTIONAL MATCH (t:Tool {catalog: $catalog})
WHERE NOT t.name IN $keep
CALL (t) {
  MATCH (q:Question)-[:ASKS_FOR]->(t)
  WHERE COUNT { (q)-[:ASKS_FOR]->() } = 1
  DETACH DELETE q
}
WITH t, t.name AS name, [(t)-[:MERGED_INTO]->(c:Tool) | c.name] AS canonicals
DETACH DELETE t
WITH collect(name) AS names, collect(canonicals) AS canonicals
RETURN names + reduce(all = [], c IN canonicals | all + c) AS gone
