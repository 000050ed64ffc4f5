// Tools whose closure can change when the tools $names change: those tools, their canonical tools,
// and every tool whose closure lists one of them (kg_tools.closure.refresh).
OPTIONAL MATCH (t:Tool) WHERE t.name IN $names
OPTIONAL MATCH (t)-[:MERGED_INTO]->(c:Tool)
WITH $names + collect(DISTINCT c.name) AS touched
OPTIONAL MATCH (a:Tool)
WHERE a.name IN touched OR any(n IN touched WHERE n IN coalesce(a.closure, []))
RETURN collect(DISTINCT a.name) AS names
