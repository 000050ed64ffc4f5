"""The gateway's upstream client speaks either protocol version (issue 31 item 3), without Neo4j: an
upstream that speaks ONLY 2026-07-28 (the official TypeScript SDK's server in its strict modern-only mode,
tests/support/modern_upstream.mjs), over stdio and streamable HTTP, is connected with `server/discover`,
listed, called, and its tool-list changes arrive on `subscriptions/listen`; a legacy-only upstream (the npm
memory server, TypeScript SDK 1.x) is still connected with `initialize`."""

from __future__ import annotations

import sys

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import UNSUPPORTED_PROTOCOL_VERSION

from kg_tools.gateway import transport
from kg_tools.gateway.config import UpstreamConfig
from kg_tools.gateway.upstream import Upstream
from tests.integration.test_gateway import mcp_servers  # noqa: F401 - the session fixture installing the real servers
from tests.support.modern_upstream import MEMORY_SERVER, modern_http_upstream, npm_servers, stdio_config
from tests.support.upstream_run import run_upstream

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
def _servers(mcp_servers):
    """The npm servers (scripts/setup-mcp-servers, fast when present)."""
    assert npm_servers()


def run(config: UpstreamConfig, body) -> list[list[str]]:
    """An Upstream whose syncs are only recorded; `body(upstream)` runs once it is ready."""
    return run_upstream(config, body, start_timeout=30)


async def changed_and_called(upstream: Upstream) -> None:
    assert upstream.protocol_version == "2026-07-28" and upstream.health()["protocol"] == "2026-07-28"
    assert upstream.server_info is not None and upstream.server_info.name == "modern-only-upstream"
    assert upstream.instructions == "A test server that speaks only MCP 2026-07-28."
    result = await upstream.call("convert_temperature", {"celsius": 100}, 30)
    assert "212 °F" in result.content[0].text
    await upstream.call("add_tool", {"name": "wind_chill", "description": "The wind chill."}, 30)
    with anyio.fail_after(30):  # announced on the subscriptions/listen stream: listed again
        while "wind_chill" not in {t.name for t in upstream.tools}:
            await anyio.sleep(0.1)
    assert "wind_chill: hi" in (await upstream.call("wind_chill", {"text": "hi"}, 30)).content[0].text


def test_a_2026_only_stdio_upstream_is_connected_listed_called_and_followed():

    syncs = run(UpstreamConfig(**stdio_config()), changed_and_called)
    assert syncs[0] == ["add_tool", "convert_temperature", "echo"] and "wind_chill" in syncs[-1]


def test_a_2026_only_http_upstream_is_connected_listed_called_and_followed():

    with modern_http_upstream() as url:
        syncs = run(UpstreamConfig(url=url), changed_and_called)
    assert syncs[0] == ["add_tool", "convert_temperature", "echo"] and "wind_chill" in syncs[-1]


def test_the_2026_only_upstream_refuses_initialize():
    """What makes it a 2026-only server: the SDK's client in the handshake era is refused (-32022)."""

    seen: dict = {}

    async def main():
        params = StdioServerParameters(**stdio_config())
        async with transport.stdio_client(params, errlog=sys.stderr) as streams:
            async with ClientSession(streams.read, streams.write, read_timeout_seconds=30) as session:
                with pytest.raises(MCPError) as refused:
                    await session.initialize()
                seen["error"] = refused.value

    anyio.run(main)
    assert seen["error"].code == UNSUPPORTED_PROTOCOL_VERSION and "2026-07-28" in str(seen["error"].error.data)


def test_a_legacy_only_upstream_is_connected_with_initialize(tmp_path):

    async def body(upstream):
        assert upstream.protocol_version == "2025-11-25"
        result = await upstream.call("read_graph", {}, 30)
        assert not result.is_error

    config = UpstreamConfig(
        command="node", args=[str(MEMORY_SERVER)], env={"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")}
    )
    syncs = run(config, body)
    assert "create_entities" in syncs[0]
