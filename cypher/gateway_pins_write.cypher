// Pin or hold tool definitions: one row per tool (server, tool, hash, definition, held_hash, held_definition, hold).
UNWIND $rows AS row
MERGE (p:GatewayPin {server: row.server, tool: row.tool})
SET p.hash = row.hash, p.definition = row.definition, p.held_hash = row.held_hash,
    p.held_definition = row.held_definition, p.hold = row.hold
