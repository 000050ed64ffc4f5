"""`kg-tools gateway`: one MCP endpoint in front of N upstream MCP servers.

config.py  the `mcpServers` file (+ the "kg-tools" policy block), validated
names.py   `<server>__<tool>` names (<= 64 characters, unique) and their way back
policy.py  profiles: allow/deny globs, read-only, destructive tools need an explicit allow
upstream.py one long-lived client session per upstream (start, list, call, list_changed, restart with backoff)
transport.py bounded stdio and HTTP transports (every message cut at a limit while it arrives)
limits.py  the limits on what an upstream sends, and the cut of a too-large result
validation.py call_tool's argument check: RE2 patterns, a time budget, a worker thread
health.py  each upstream's state for `kg-tools gateway status` (a status file)
sync.py    an upstream's tool list -> the graph through the one load path, differentially
service.py the logic: routing, policy checks, the widening search, server ranking, token cap, schema checks
server.py  the MCP server: search_tools, get_tool, call_tool (thin handlers, errors mapped by kg_tools/mcp_errors.py)
"""
