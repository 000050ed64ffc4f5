// A gateway claims its servers: each (:Server) node lists the gateways that serve it (`gateways`, a
// reference count by name); a server two gateways list is shared and deleted only when neither does.
UNWIND $servers AS key
MERGE (s:Server {name: key})
SET s.gateways = CASE WHEN $gateway IN coalesce(s.gateways, []) THEN s.gateways
                      ELSE coalesce(s.gateways, []) + $gateway END
