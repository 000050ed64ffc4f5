// Every upstream the gateway has synced (its (:Server) nodes).
MATCH (s:Server)
RETURN s.name AS name ORDER BY name
