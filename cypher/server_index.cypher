// Every (:Server) with an embedding (written by the gateway's sync or `eval catalog --servers`) and the tools
// it PROVIDES as [catalog, name]: what the server-score stage keeps per graph version
// (kg_tools/retrieval/server_index.py computes the query's similarity to a candidate's server from it).
MATCH (s:Server)
WHERE s.embedding IS NOT NULL
RETURN s.name AS name, s.embedding AS embedding, [(s)-[:PROVIDES]->(t:Tool) | [t.catalog, t.name]] AS tools
