"""A real MCP server (official SDK) for the gateway tests whose tool list changes at run time.

    python tests/support/gateway_upstream.py [--tools N] [--flow] [--http PORT]

Tools: `echo(text)`, `pid()` (its process id, so a test can kill it), `add_tool(name, description)`
(registers a new tool that echoes its input, then announces it: notifications/tools/list_changed, and on the
subscriptions/listen streams of 2026-07-28 clients) and, with --tools N, N generated tools `op_0000`... (for the sync-time test). --flow adds two tools whose values
flow from one to the other (for the observed-dependency test): `lookup_member(nickname)` returns a member
card with a fresh `member_ref`, which `ship_parcel(consignee, contents)` takes.
"""

from __future__ import annotations

import argparse
import os
import uuid

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations

READ_ONLY = ToolAnnotations(readOnlyHint=True)
VERBS = ["list", "get", "create", "update", "archive", "export", "count", "search"]
NOUNS = [
    "invoices",
    "customers",
    "orders",
    "tickets",
    "shipments",
    "refunds",
    "coupons",
    "reviews",
    "payments",
    "subscriptions",
    "warehouses",
    "suppliers",
    "employees",
    "projects",
    "calendars",
    "reports",
]


def build(n_tools: int, flow: bool = False) -> MCPServer:
    server = MCPServer("gateway-test-upstream", instructions="A test server whose tools change at run time.")

    @server.tool(name="echo", description="Echo the given text back.", annotations=READ_ONLY)
    def echo(text: str) -> str:
        return text

    @server.tool(name="pid", description="The process id of this server.", annotations=READ_ONLY)
    def pid() -> int:
        return os.getpid()

    @server.tool(
        name="add_tool",
        description="Register a new tool at run time and announce it (list_changed).",
        annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
    )
    async def add_tool(name: str, description: str, ctx: Context) -> str:
        def added(text: str) -> str:
            return f"{name}: {text}"

        server.add_tool(added, name=name, description=description, annotations=READ_ONLY)
        await ctx.session.send_tool_list_changed()  # 2025-11-25 clients
        await ctx.notify_tools_changed()  # 2026-07-28 clients: their subscriptions/listen streams
        return f"added {name}"

    if flow:

        @server.tool(name="lookup_member", description="Look up a club member by nickname.", annotations=READ_ONLY)
        def lookup_member(nickname: str) -> dict:
            return {"card": {"member_ref": f"M-{uuid.uuid4().hex[:10]}", "nickname": nickname, "active": True}}

        @server.tool(
            name="ship_parcel",
            description="Ship a parcel with the given contents to a consignee.",
            annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=False),
        )
        def ship_parcel(consignee: str, contents: str) -> dict:
            return {"shipped": True, "consignee": consignee, "parcels": 1}

    for i in range(n_tools):
        verb, noun = VERBS[i % len(VERBS)], NOUNS[(i // len(VERBS)) % len(NOUNS)]

        def op(item_id: str, limit: int = 10) -> str:
            return item_id

        server.add_tool(
            op,
            name=f"op_{i:04d}",
            annotations=READ_ONLY,
            description=f"{verb.title()} {noun} of account group {i // 128} (variant {i}).",
        )
    return server


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=0)
    parser.add_argument("--flow", action="store_true")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP at 127.0.0.1:PORT/mcp")
    args = parser.parse_args()
    if args.http:
        build(args.tools, args.flow).run("streamable-http", host="127.0.0.1", port=args.http)
    else:
        build(args.tools, args.flow).run("stdio")
