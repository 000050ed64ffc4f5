// A gateway lets go of a server it no longer lists: its name leaves the server's `gateways`; the last
// gateway to let go deletes the (:Server) node (the caller then deletes its catalog). Returns who is left.
MATCH (s:Server {name: $name})
SET s.gateways = [g IN coalesce(s.gateways, []) WHERE g <> $gateway]
WITH s, s.gateways AS left
CALL (s, left) {
  WITH s WHERE size(left) = 0
  DETACH DELETE s
}
RETURN left
