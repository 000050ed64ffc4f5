// A gateway lets go of a server it no longer lists: its name leaves the server's `gateways`; the last
// gateway to let go deletes the (:Server) node and its pinned definitions (kg_tools/gateway/pinning.py:
// they pin tools that go with the catalog, which the caller then deletes; a server added again later is
// synced as a new one), in this one transaction. Returns who is left.
MATCH (s:Server {name: $name})
SET s.gateways = [g IN coalesce(s.gateways, []) WHERE g <> $gateway]
WITH s, s.gateways AS left
CALL (s, left) {
  WITH s WHERE size(left) = 0
  CALL (s) {
    MATCH (p:GatewayPin {server: s.name})
    DELETE p
  }
  DETACH DELETE s
}
RETURN left
