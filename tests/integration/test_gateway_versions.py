"""`kg-tools gateway` and the two MCP protocol versions (issue 31 item 3), over stdio as an MCP client
starts it, driven by the SDK's client negotiating 2026-07-28 (stateless: server/discover, no initialize).

Upstreams of either version: two that speak ONLY 2026-07-28 (tests/support/modern_upstream.mjs, the
official TypeScript SDK's server with `legacy: 'reject'`), one over stdio and one over streamable HTTP,
and one that speaks only 2025-11-25 (the npm memory server, TypeScript SDK 1.x). The gateway lists,
searches and calls the tools of each, and a tool added upstream at run time is found after its change
arrived on the 2026 upstream's subscriptions/listen stream."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import pytest
from mcp import Client, StdioServerParameters

from kg_tools import PROJECT_ROOT
from tests.conftest import wipe
from tests.support.cli_process import kg_tools_env
from tests.support.modern_upstream import MEMORY_SERVER, modern_http_upstream, stdio_config

pytestmark = pytest.mark.integration

MODERN = ("thermo", "thermoweb")  # the 2026-only upstreams: stdio, HTTP


def payload(result) -> dict:
    assert not result.is_error, result.content
    return result.structured_content or json.loads(result.content[0].text)


@pytest.fixture(scope="module")
def config_path(settings, graph, tmp_path_factory):
    subprocess.run([str(PROJECT_ROOT / "scripts" / "setup-mcp-servers")], check=True, timeout=900)
    wipe(graph)
    root = tmp_path_factory.mktemp("versions")
    with modern_http_upstream() as url:
        config = {
            "mcpServers": {
                "thermo": stdio_config() | {"accept_changes": True},
                "thermoweb": {"url": url, "accept_changes": True},
                "memory": {
                    "command": "node",
                    "args": [str(MEMORY_SERVER)],
                    "env": {"MEMORY_FILE_PATH": str(root / "memory.jsonl")},
                },
            },
            "kg-tools": {"start_timeout": 60, "call_timeout": 60},
        }
        path = root / "gateway.json"
        path.write_text(json.dumps(config))
        yield path


def test_a_2026_client_uses_upstreams_of_either_version_through_the_stdio_gateway(settings, config_path):
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "kg_tools.cli", "gateway", "--config", str(config_path)],
        env=kg_tools_env(settings),
        cwd=str(PROJECT_ROOT),
    )
    seen: dict = {}

    async def call(client, name: str, arguments: dict):
        return await client.call_tool("call_tool", {"name": name, "arguments": arguments})

    async def first(client, query: str, server: str) -> str:
        found = payload(await client.call_tool("search_tools", {"query": query, "server": server}))
        return found["tools"][0]["name"] if found["tools"] else ""

    async def run():
        with anyio.fail_after(600):  # the gateway starts three upstreams and syncs them first
            async with Client(params, mode="auto") as client:  # the SDK's client: server/discover first
                seen["version"] = client.protocol_version
                listed = await client.list_tools()
                seen["listed"] = [t.name for t in listed.tools]
                seen["cache"] = (listed.ttl_ms, listed.cache_scope)
                for server in MODERN:
                    seen[f"{server} found"] = await first(client, "convert celsius to fahrenheit", server)
                    seen[f"{server} call"] = await call(client, f"{server}__convert_temperature", {"celsius": 100})
                seen["memory found"] = await first(client, "read the whole knowledge graph", "memory")
                seen["memory call"] = await call(client, "memory__read_graph", {})
                for server in MODERN:  # a tool added at run time, announced on subscriptions/listen
                    added = {
                        "name": "wind_chill",
                        "description": "Compute the wind chill from air temperature and wind.",
                    }
                    seen[f"{server} add"] = await call(client, f"{server}__add_tool", added)
                    with anyio.fail_after(120):
                        while (found := await first(client, "how cold does the wind make it feel", server)) != (
                            f"{server}__wind_chill"
                        ):
                            await anyio.sleep(0.5)
                    seen[f"{server} added"] = found
                    seen[f"{server} added call"] = await call(client, found, {"text": "-5 °C, 30 km/h"})

    anyio.run(run)
    assert seen["version"] == "2026-07-28"
    assert seen["listed"] == ["search_tools", "get_tool", "call_tool"]
    assert seen["cache"] == (3_600_000, "public")
    for server in MODERN:
        assert seen[f"{server} found"] == f"{server}__convert_temperature"
        assert not seen[f"{server} call"].is_error and "212 °F" in seen[f"{server} call"].content[0].text
        assert not seen[f"{server} add"].is_error and seen[f"{server} add"].content[0].text == "added wind_chill"
        assert seen[f"{server} added"] == f"{server}__wind_chill"
        assert "wind_chill: -5 °C" in seen[f"{server} added call"].content[0].text
    assert seen["memory found"] == "memory__read_graph"
    assert not seen["memory call"].is_error, seen["memory call"].content
