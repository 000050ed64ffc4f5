// Approve held definitions: of the given servers, every held tool or only those named (server, tool pairs).
MATCH (p:GatewayPin) WHERE p.server IN $servers AND p.hold IS NOT NULL
  AND ($tools IS NULL OR [p.server, p.tool] IN $tools)
SET p.hash = p.held_hash, p.definition = p.held_definition, p.held_hash = null, p.held_definition = null,
    p.hold = null
RETURN p.server AS server, p.tool AS tool
ORDER BY server, tool
