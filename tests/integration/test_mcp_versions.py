"""`kg-tools mcp` speaks the 2026-07-28 protocol (stateless, server/discover) and 2025-11-25 (initialize)
for older clients: the SDK's client in each mode lists, searches and gets (issue 31 item 3)."""

from __future__ import annotations

import asyncio

import pytest
from mcp import Client

from kg_tools.mcp_server import McpBackend, build_server
from tests.support import synthetic_catalog as syn

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(("mode", "version"), [("legacy", "2025-11-25"), ("2026-07-28", "2026-07-28")])
def test_kg_tools_mcp_serves_both_protocol_versions(settings, graph, embedder, mode, version):

    graph.write("MATCH (n) DETACH DELETE n")
    syn.load(graph, embedder)
    server = build_server(McpBackend(settings, graph=graph, embedder=embedder))
    seen: dict = {}

    async def main():
        async with Client(server, mode=mode) as client:
            seen["version"] = client.protocol_version
            listed = await client.list_tools()
            seen["tools"] = [t.name for t in listed.tools]
            seen["cache"] = (listed.ttl_ms, listed.cache_scope)
            found = await client.call_tool("search_tools", {"query": "book a flight to Paris", "k": 2, "K": 5})
            name = found.structured_content["tools"][0]["name"]
            seen["got"] = await client.call_tool("get_tool", {"name": name})

    asyncio.run(main())
    assert seen["version"] == version
    assert seen["tools"] == ["search_tools", "get_tool"]  # declared order, every time
    if mode != "legacy":
        assert seen["cache"] == (3_600_000, "public")
    assert not seen["got"].is_error, seen["got"]
