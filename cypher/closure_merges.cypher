// Every merged tool of the catalogs $catalogs and its canonical tool in the same catalog (kg_tools.closure).
MATCH (m:Tool)-[:MERGED_INTO]->(c:Tool)
WHERE m.catalog IN $catalogs AND c.catalog = m.catalog
RETURN m.catalog AS catalog, m.name AS member, c.name AS canonical
