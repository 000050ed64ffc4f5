// The stored embeddings of tools given by catalog and name (a tool is (catalog, name): the key of
// tool_catalog_name_unique, so one seek each): the ordering's cosines of inferred dependencies to the query
// (kg_tools/retrieval/relevance.py). Every tool has a catalog; staged tools are new names, never a live one's copy.
UNWIND $tools AS wanted
MATCH (t:Tool {catalog: wanted.catalog, name: wanted.name})
RETURN t.name AS name, t.catalog AS catalog, t.embedding AS embedding
