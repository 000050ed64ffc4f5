// The gateways that serve catalog $catalog (a (:Server) node of that name): REST and CLI writes to such a
// catalog are refused. `owned`: it is a gateway's catalog at all (a server of an older gateway lists none).
OPTIONAL MATCH (s:Server {name: $catalog})
RETURN s IS NOT NULL AS owned, coalesce(s.gateways, []) AS gateways
