// Every embedded tool (bench: the in-process GRTF baseline over the same data).
MATCH (t:Tool) WHERE t.embedding IS NOT NULL
RETURN t.name AS name, t.embedding AS embedding
