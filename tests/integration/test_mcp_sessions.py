"""MCP over HTTP: the token is checked at `initialize` (401 before a session exists), sessions are capped per
token and in total, and tokenless requests cannot lock out a valid client (kg_tools/http_guard.py), for
`kg-tools gateway` and `kg-tools mcp`, driven by raw HTTP and the official SDK client."""

from __future__ import annotations

import json
import sys

import anyio
import httpx
import pytest

from kg_tools import PROJECT_ROOT
from tests.support.cli_process import kg_tools_env, start_http, stop_http
from tests.support.mcp_http import bearer_session

pytestmark = pytest.mark.integration

UPSTREAM = PROJECT_ROOT / "tests" / "support" / "gateway_upstream.py"
AGENT, READER = "agent-" + "a" * 20, "reader-" + "r" * 20
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def initialize(port: int, token: str | None = None, session: str | None = None):

    headers = dict(ACCEPT)
    if token:
        headers["authorization"] = f"Bearer {token}"
    if session:
        headers["mcp-session-id"] = session
    return httpx.post(f"http://127.0.0.1:{port}/mcp", json=INITIALIZE, headers=headers, timeout=30)


async def sdk_tools(port: int, token: str) -> list[str]:
    """tools/list through the official client with a bearer token."""

    with anyio.fail_after(60):
        async with bearer_session(f"http://127.0.0.1:{port}/mcp", token, timeout=30) as session:
            await session.initialize()
            return sorted(t.name for t in (await session.list_tools()).tools)


def test_gateway_checks_the_token_at_initialize_and_caps_sessions_per_token(settings, graph, tmp_path):
    config = {
        "mcpServers": {"dynamic": {"command": sys.executable, "args": [str(UPSTREAM)]}},
        "kg-tools": {"profiles": {"agent": {"token": AGENT}, "reader": {"read_only": True, "token": READER}}},
    }
    path = tmp_path / "gateway.json"
    path.write_text(json.dumps(config))
    env = kg_tools_env(settings, KG_TOOLS_MCP_SESSIONS_PER_CLIENT="3", KG_TOOLS_MCP_MAX_SESSIONS="20")
    proc, port = start_http(["gateway", "--config", str(path)], env, "kg-tools gateway --transport http")
    try:
        # no token, a wrong one: 401 with WWW-Authenticate, and no session
        for token in (None, "wrong-" + "x" * 20):
            refused = initialize(port, token)
            assert refused.status_code == 401, refused.text
            assert refused.headers["www-authenticate"].startswith("Bearer ")
            assert "mcp-session-id" not in refused.headers
            assert "no valid bearer token" in refused.json()["error"]["message"]
        # many tokenless initializes (more than the total cap) do not lock out a valid client
        for _ in range(30):
            assert initialize(port).status_code == 401
        assert anyio.run(sdk_tools, port, AGENT) == ["call_tool", "get_tool", "search_tools"]
        # one token's sessions are capped; another token still gets one
        opened = [initialize(port, AGENT) for _ in range(3)]
        assert all(r.status_code == 200 for r in opened), [r.text for r in opened]
        over = initialize(port, AGENT)
        assert over.status_code == 429 and "cap 3" in over.json()["error"]["message"], over.text
        assert anyio.run(sdk_tools, port, READER) == ["call_tool", "get_tool", "search_tools"]
        # a session belongs to the token that opened it
        stolen = opened[0].headers["mcp-session-id"]
        assert initialize(port, READER, session=stolen).status_code == 404
    finally:
        err = stop_http(proc)
    assert "refused a request from 127.0.0.1: no valid bearer token" in err
    assert err.count("no valid bearer token") < 5  # logged, not once per request
    assert "refused a new session for profile agent" in err


def test_mcp_over_http_needs_the_api_key_when_set_and_caps_sessions_per_client(settings, graph):
    key = "k" * 32
    env = kg_tools_env(
        settings, KG_TOOLS_API_KEY=key, KG_TOOLS_MCP_SESSIONS_PER_CLIENT="2", KG_TOOLS_MCP_MAX_SESSIONS="10"
    )
    proc, port = start_http(["mcp"], env, "kg-tools mcp --transport http")
    try:
        for _ in range(20):
            refused = initialize(port)
            assert refused.status_code == 401 and refused.headers["www-authenticate"].startswith("Bearer ")
        assert anyio.run(sdk_tools, port, key) == ["get_tool", "search_tools"]
        assert [initialize(port, key).status_code for _ in range(3)][-1] == 429
    finally:
        stop_http(proc)
