// Every merged tool and its canonical tool (kg_tools.closure).
MATCH (m:Tool)-[:MERGED_INTO]->(c:Tool)
RETURN m.name AS member, c.name AS canonical
