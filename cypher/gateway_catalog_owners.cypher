// The gateways that serve catalog $catalog (its (:Server) node's `gateways`): REST and CLI writes to such
// a catalog are refused (kg_tools/catalog_store.py). A server no gateway lists protects nothing.
OPTIONAL MATCH (s:Server {name: $catalog})
RETURN coalesce(s.gateways, []) AS gateways
