// The pinned definitions of the given servers' tools (kg_tools/gateway/pinning.py): the approved hash and
// definition, and a hold (the held hash, definition and why) when the upstream's current one differs.
MATCH (p:GatewayPin) WHERE p.server IN $servers
RETURN p.server AS server, p.tool AS tool, p.hash AS hash, p.definition AS definition,
       p.held_hash AS held_hash, p.hold AS hold
ORDER BY server, tool
