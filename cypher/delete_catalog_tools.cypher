// --replace: remove the tools of ONE catalog that the load planned to delete (those it lacked when it
// read the graph: a tool written into the catalog since, e.g. by a PUT while the load ran, stays; one
// moved to another catalog meanwhile too), with the enrichment questions that ask only for them.
// Returns the deleted names and their canonical tools (`gone`: the closures to recompute start there).
UNWIND $names AS planned
MATCH (t:Tool {name: planned, catalog: $catalog})
CALL (t) {
  MATCH (q:Question)-[:ASKS_FOR]->(t)
  WHERE COUNT { (q)-[:ASKS_FOR]->() } = 1
  DETACH DELETE q
}
WITH t, t.name AS name, [(t)-[:MERGED_INTO]->(c:Tool) | c.name] AS canonicals
DETACH DELETE t
WITH collect(name) AS names, collect(canonicals) AS canonicals
RETURN names + reduce(all = [], c IN canonicals | all + c) AS gone
