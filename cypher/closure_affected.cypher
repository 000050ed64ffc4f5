// Tools whose closure can change when the tools named $names change (in any catalog: a name may be in
// several): those tools, their canonical tools, and every tool of the same catalog whose closure lists one
// of them (closures are catalog-internal). Returns [catalog, name] pairs (kg_tools.closure.refresh).
OPTIONAL MATCH (t:Tool) WHERE t.name IN $names
OPTIONAL MATCH (t)-[:MERGED_INTO]->(c:Tool)
WITH collect(DISTINCT [t.catalog, t.name]) + collect(DISTINCT [c.catalog, c.name]) AS touched
UNWIND touched AS key
WITH DISTINCT key WHERE key[1] IS NOT NULL
CALL (key) {
  MATCH (a:Tool) WHERE a.catalog = key[0] AND (a.name = key[1] OR key[1] IN coalesce(a.closure, []))
  RETURN [a.catalog, a.name] AS found
}
RETURN collect(DISTINCT found) AS keys
