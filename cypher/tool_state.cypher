// Every tool's load state: is its spec, catalog and embedding what a load (or eval) expects?
MATCH (t:Tool)
RETURN t.name AS name, t.catalog AS catalog, t.spec_hash AS spec_hash, t.embedding_model AS embedding_model,
       t.embedding IS NOT NULL AS has_embedding
