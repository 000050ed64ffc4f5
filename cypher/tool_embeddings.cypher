// Stored embeddings of the named tools, or of every embedded tool when $names is null
// (duplicate removal among rerank candidates; the bench's in-process baseline).
MATCH (t:Tool)
WHERE t.embedding IS NOT NULL AND ($names IS NULL OR t.name IN $names)
RETURN t.name AS name, t.catalog AS catalog, t.embedding AS embedding
