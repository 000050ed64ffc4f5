MATCH (t:Tool)
RETURN t.name AS name, t.spec_hash AS spec_hash, t.embedding_model AS embedding_model,
       t.embedding IS NOT NULL AS has_embedding
