// --replace: remove the tools of ONE catalog that the new load does not contain (other catalogs are
// untouched), with the enrichment questions that ask only for them. Tools kept are rewritten by the load.
MATCH (t:Tool {catalog: $catalog})
WHERE NOT t.name IN $keep
CALL (t) {
  MATCH (q:Question)-[:ASKS_FOR]->(t)
  WHERE COUNT { (q)-[:ASKS_FOR]->() } = 1
  DETACH DELETE q
}
DETACH DELETE t
