UNWIND $rows AS row
MATCH (t:Tool {name: row.name})
SET t.embedding = row.embedding, t.embedding_model = row.embedding_model
