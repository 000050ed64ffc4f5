// One tool's pin: its approved hash and hold (null row values when it was never pinned).
OPTIONAL MATCH (p:GatewayPin {server: $server, tool: $tool})
RETURN p.hash AS hash, p.hold AS hold
