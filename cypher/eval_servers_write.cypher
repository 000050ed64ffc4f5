// `eval catalog --servers`: one (:Server) per server the catalog's tools name, PROVIDES its tools. Named
// `<catalog>:<server>` and marked with eval_catalog so that they never meet a gateway's servers and go with
// the catalog (eval_servers_delete).
UNWIND $servers AS server
CREATE (s:Server {name: server.name})
SET s.title = server.title, s.embedding = server.embedding, s.embedding_model = server.embedding_model,
    s.eval_catalog = $catalog
WITH s, server
UNWIND server.tools AS tool
MATCH (t:Tool {name: tool, catalog: $catalog})
MERGE (s)-[:PROVIDES]->(t)
RETURN count(DISTINCT s) AS servers, count(t) AS tools
