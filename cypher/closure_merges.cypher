// Every merged tool and its canonical tool, as (catalog, name) (kg_tools.closure).
MATCH (m:Tool)-[:MERGED_INTO]->(c:Tool)
RETURN m.catalog AS member_catalog, m.name AS member, c.catalog AS canonical_catalog, c.name AS canonical
