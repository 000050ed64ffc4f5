// The current mapping phi for merged tools: member -> canonical (unmerged tools map to themselves).
MATCH (m:Tool)-[:MERGED_INTO]->(c:Tool)
WHERE $catalog IS NULL OR m.catalog = $catalog
RETURN m.name AS member, c.name AS canonical
