// Apply one merge run: the MergeRun node, the rewritten canonical tools (previous values on the
// UPDATED relationship, each re-embedded when the run carries its new vector) and one MERGED_INTO per member;
// tools of the plan's catalog ($catalog) when it has one (a tool is (catalog, name)).
CREATE (r:MergeRun)
SET r = $run
WITH r
CALL (r) {
  UNWIND $canonicals AS row
  MATCH (c:Tool {name: row.name}) WHERE $catalog IS NULL OR c.catalog = $catalog
  CREATE (r)-[:UPDATED {previous: row.previous}]->(c)
  SET c.description = row.description, c.spec = row.spec, c.param_text = row.param_text
  // a merge re-embeds the canonical tool (its new document), undo restores its vector; a run
  // stored before either has no vector here and leaves the tool's as it is
  SET c.embedding = coalesce(row.embedding, c.embedding), c.embedding_model = coalesce(row.embedding_model, c.embedding_model)
  RETURN count(*) AS canonicals
}
CALL (r) {
  UNWIND $links AS link
  MATCH (m:Tool {name: link.member}), (c:Tool {name: link.canonical})
  WHERE $catalog IS NULL OR (m.catalog = $catalog AND c.catalog = $catalog)
  CREATE (m)-[:MERGED_INTO {run: r.id, score: link.score, method: link.method, reason: link.reason}]->(c)
  RETURN count(*) AS links
}
RETURN canonicals, links
