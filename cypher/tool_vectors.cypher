// The stored embeddings of tools given by name and catalog (a tool is (catalog, name)): the ordering's cosines
// of inferred dependencies to the query (kg_tools/retrieval/relevance.py).
UNWIND $tools AS wanted
MATCH (t:Tool {name: wanted.name})
WHERE wanted.catalog IS NULL OR t.catalog = wanted.catalog
RETURN t.name AS name, t.catalog AS catalog, t.embedding AS embedding
