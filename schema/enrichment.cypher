// Enriched tool documents (`kg-tools enrich`): (:Question {text, kind, embedding, ...})-[:ASKS_FOR]->(:Tool).
// kind = 'question' (a synthetic user question) or 'description' (the expanded description + topics).
// Idempotent; $dimensions comes from the configured embedder (the same as tool_embedding).
CREATE INDEX question_tool IF NOT EXISTS FOR (q:Question) ON (q.tool);
CREATE VECTOR INDEX question_embedding IF NOT EXISTS FOR (q:Question) ON q.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}};
