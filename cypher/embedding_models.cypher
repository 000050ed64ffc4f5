MATCH (t:Tool) WHERE t.embedding IS NOT NULL
RETURN t.embedding_model AS model, count(*) AS tools
