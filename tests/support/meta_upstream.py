"""A real MCP server (official SDK, stdio) whose one tool answers with the `_meta` of its request: the
gateway tests check that an upstream call carries the W3C `traceparent` (docs/observability.md).

    python tests/support/meta_upstream.py
"""

from __future__ import annotations

import json

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations


def build() -> MCPServer:
    server = MCPServer("meta-echo", instructions="Echoes the _meta of each call.")

    @server.tool(
        name="echo_meta",
        description="Answer with the _meta object this call's request carried.",
        annotations=ToolAnnotations(readOnlyHint=True),
    )
    def echo_meta(ctx: Context) -> str:
        return json.dumps(dict(ctx.request_context.meta or {}), default=str)

    return server


if __name__ == "__main__":
    build().run()
