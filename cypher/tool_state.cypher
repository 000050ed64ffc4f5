// Every tool's (of catalog $catalog, or of all) load state: is its spec, catalog and embedding what a load (or eval) expects?
MATCH (t:Tool) WHERE $catalog IS NULL OR t.catalog = $catalog
RETURN t.name AS name, t.catalog AS catalog, t.spec_hash AS spec_hash, t.embedding_model AS embedding_model,
       t.embedding IS NOT NULL AS has_embedding, t.position AS position,  // its place (ingest.load_positions)
       // hand-written dependency edges it has now (a load rewrites a tool whose edges differ from the file's)
       COUNT { (t)-[r]->(b:Tool) WHERE b.catalog = t.catalog AND type(r) ENDS WITH '_DEPENDS_ON'
                AND NOT coalesce(r.inferred, false) } AS hand_edges
