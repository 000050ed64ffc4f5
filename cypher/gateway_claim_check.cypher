// The server keys a gateway is about to claim: is each one a catalog already, and is it a gateway's
// (a (:Server) node of that name) or another kind of catalog (a load, import or PUT)? (kg_tools/gateway/sync.py)
UNWIND $servers AS key
OPTIONAL MATCH (c:Catalog {name: key})
OPTIONAL MATCH (s:Server {name: key})
RETURN key, c IS NOT NULL AS catalog, COUNT { MATCH (t:Tool) WHERE t.catalog = key } AS tools,
       s IS NOT NULL AS server, c.last_load_kind AS kind
