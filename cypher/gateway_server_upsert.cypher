// One upstream as (:Server {name, title, version, instructions, embedding})-[:PROVIDES]->(:Tool) for every
// tool of its catalog (catalog = server name); PROVIDES edges to tools no longer in the catalog go.
MERGE (s:Server {name: $server.name})
SET s.title = $server.title, s.version = $server.version, s.instructions = $server.instructions,
    s.embedding = $server.embedding, s.embedding_model = $server.embedding_model, s.state_hash = $server.state_hash
WITH s
CALL (s) {
  MATCH (s)-[r:PROVIDES]->(t:Tool) WHERE t.catalog <> s.name
  DELETE r
}
CALL (s) {
  MATCH (t:Tool {catalog: s.name})
  MERGE (s)-[:PROVIDES]->(t)
}
RETURN s.name AS name
