UNWIND $rows AS row
MATCH (q:Question) WHERE elementId(q) = row.id
SET q.embedding = row.embedding, q.embedding_model = row.embedding_model
