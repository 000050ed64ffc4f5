// The similarity of the query to the server that provides each candidate tool ((:Server)-[:PROVIDES]->(:Tool),
// written by the gateway's sync or `eval catalog --servers`), in the vector index's [0, 1] scale; tools no
// server provides (or whose server has no embedding) are left out. A tool several servers provide takes the best.
UNWIND $names AS name
MATCH (s:Server)-[:PROVIDES]->(:Tool {name: name})
WHERE s.embedding IS NOT NULL AND size(s.embedding) = size($embedding)
RETURN name, max(vector.similarity.cosine(s.embedding, $embedding)) AS score
