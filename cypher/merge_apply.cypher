// Apply one merge run: the MergeRun node, the rewritten canonical tools (previous values on the
// UPDATED relationship) and one MERGED_INTO per member.
CREATE (r:MergeRun)
SET r = $run
WITH r
CALL (r) {
  UNWIND $canonicals AS row
  MATCH (c:Tool {name: row.name})
  CREATE (r)-[:UPDATED {previous: row.previous}]->(c)
  SET c.description = row.description, c.spec = row.spec, c.param_text = row.param_text
  RETURN count(*) AS canonicals
}
CALL (r) {
  UNWIND $links AS link
  MATCH (m:Tool {name: link.member}), (c:Tool {name: link.canonical})
  CREATE (m)-[:MERGED_INTO {run: r.id, score: link.score, method: link.method, reason: link.reason}]->(c)
  RETURN count(*) AS links
}
RETURN canonicals, links
