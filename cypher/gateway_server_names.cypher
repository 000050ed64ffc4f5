// The upstreams a gateway has claimed (their (:Server) nodes list its name in `gateways`).
MATCH (s:Server)
WHERE $gateway IN coalesce(s.gateways, [])
RETURN s.name AS name ORDER BY name
