// A server that left the gateway's config: its (:Server) node (its tools go through the catalog delete).
MATCH (s:Server {name: $name})
DETACH DELETE s
