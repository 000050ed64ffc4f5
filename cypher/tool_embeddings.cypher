// Stored embeddings of the named tools (duplicate removal among rerank candidates).
UNWIND $names AS name
MATCH (t:Tool {name: name})
RETURN t.name AS name, t.embedding AS embedding
