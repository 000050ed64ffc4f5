// How many enrichment vectors exist, and the embedding model of one of them.
MATCH (q:Question)
WITH count(q) AS n
OPTIONAL MATCH (sample:Question)
WITH n, sample LIMIT 1
RETURN n, sample.embedding_model AS embedding_model
