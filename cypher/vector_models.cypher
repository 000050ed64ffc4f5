// The embedding models that made the graph's tool vectors, with how many tools each (most first).
MATCH (t:Tool)
WHERE t.embedding_model IS NOT NULL
RETURN t.embedding_model AS model, count(*) AS tools
ORDER BY tools DESC, model
