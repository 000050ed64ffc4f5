// The (:Server) nodes of the given names with their embedding and tool count (search ranks them).
UNWIND $names AS name
MATCH (s:Server {name: name})
RETURN s.name AS name, s.title AS title, s.version AS version, s.embedding AS embedding,
       COUNT { (s)-[:PROVIDES]->() } AS tools
