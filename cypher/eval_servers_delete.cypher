// The (:Server) nodes `eval catalog --servers` wrote for a catalog, with their PROVIDES edges.
MATCH (s:Server {eval_catalog: $catalog})
DETACH DELETE s
RETURN count(s) AS servers
