"""The gateway's traces and metrics (issue 31 item 4, docs/observability.md): an in-process gateway over
HTTP with real upstreams (PyPI mcp-server-time and tests/support/meta_upstream.py). `/metrics` parses with
prometheus_client's parser and its counters move (gateway calls, upstream calls, syncs, upstream health);
search/call are spans; an upstream call carries the span's `traceparent` in its `_meta`; /metrics is open
on a loopback bind and needs a token elsewhere. A 2025-11-25 client (initialize) and a 2026-07-28 client
(server/discover, stateless) both list, search and call through it (issue 31 item 3)."""

from __future__ import annotations

import json
import sys

import anyio
import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from kg_tools import PROJECT_ROOT
from kg_tools.gateway.config import parse_config
from kg_tools.gateway.server import build_server, serve
from kg_tools.gateway.service import Gateway
from kg_tools.http_guard import SessionGuard, is_loopback
from kg_tools.mcp_server import McpBackend
from kg_tools.processes import free_port
from tests.conftest import wipe
from tests.support.spans import in_memory_spans

# Some of these tests need no Neo4j; the file runs with the integration tests (tests/conftest.py places files by marker).
pytestmark = pytest.mark.integration

TOKEN = "agent-" + "t" * 24
META_UPSTREAM = PROJECT_ROOT / "tests" / "support" / "meta_upstream.py"
TIME_SERVER = PROJECT_ROOT / ".mcp-servers" / "bin" / "mcp-server-time"


def samples(text: str) -> dict[tuple[str, tuple], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(page: dict, name: str, **labels) -> float:
    return page.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture(scope="module")
def spans():
    return in_memory_spans()


@pytest.mark.integration
def test_gateway_metrics_spans_and_traceparent(settings, graph, embedder, spans):

    if not TIME_SERVER.exists():
        pytest.skip("mcp-server-time not installed (scripts/setup-mcp-servers)")
    wipe(graph)
    config = parse_config(
        {
            "mcpServers": {
                "time": {"command": str(TIME_SERVER), "args": ["--local-timezone", "Etc/UTC"]},
                "meta": {"command": sys.executable, "args": [str(META_UPSTREAM)]},
            },
            "kg-tools": {"start_timeout": 120, "call_timeout": 60, "profiles": {"agent": {"token": TOKEN}}},
        }
    )
    gateway = Gateway(config, McpBackend(settings, graph=graph, embedder=embedder))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    seen: dict = {}

    async def metrics() -> dict:
        async with httpx.AsyncClient(timeout=30) as http:  # no token: open on a loopback bind
            page = await http.get(f"{url}/metrics")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/plain")
        return samples(page.text)

    async def client():
        with anyio.fail_after(300):
            while not gateway.serving:
                await anyio.sleep(0.1)
            while True:
                try:
                    seen["before"] = await metrics()
                    break
                except httpx.ConnectError:
                    await anyio.sleep(0.1)
            async with (
                httpx2.AsyncClient(headers={"authorization": f"Bearer {TOKEN}"}, timeout=60) as http,
                streamable_http_client(f"{url}/mcp", http_client=http) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()  # a client speaking 2025-11-25 (the initialize handshake)
                seen["legacy_version"] = session.protocol_version
                spans.clear()
                seen["search"] = await session.call_tool("search_tools", {"query": "what time is it in Paris"})
                seen["time"] = await session.call_tool(
                    "call_tool", {"name": "time__get_current_time", "arguments": {"timezone": "Europe/Paris"}}
                )
                seen["meta"] = await session.call_tool("call_tool", {"name": "meta__echo_meta", "arguments": {}})
                seen["unknown"] = await session.call_tool("call_tool", {"name": "get_current_time"})
            seen["after"] = await metrics()
            async with (  # a client speaking 2026-07-28 (stateless: server/discover instead of initialize)
                httpx2.AsyncClient(headers={"authorization": f"Bearer {TOKEN}"}, timeout=60) as http,
                streamable_http_client(f"{url}/mcp", http_client=http) as (read, write),
                ClientSession(read, write) as session,
            ):
                found = await session.discover()
                seen["modern_version"] = session.protocol_version
                listed = await session.list_tools()
                seen["modern_list"] = [t.name for t in listed.tools]
                seen["modern_cache"] = (listed.ttl_ms, listed.cache_scope)
                seen["modern_search"] = await session.call_tool("search_tools", {"query": "what time is it"})
                seen["modern_call"] = await session.call_tool(
                    "call_tool", {"name": "time__get_current_time", "arguments": {"timezone": "Europe/Paris"}}
                )
                assert found is not None

    async def main():
        async with anyio.create_task_group() as tg:
            tg.start_soon(serve, gateway, build_server(gateway), "http", "127.0.0.1", port)
            try:
                await client()
            finally:
                tg.cancel_scope.cancel()

    anyio.run(main)

    assert not seen["search"].is_error and not seen["time"].is_error, (seen["search"], seen["time"])
    assert seen["legacy_version"] == "2025-11-25" and seen["modern_version"] == "2026-07-28"
    assert seen["modern_list"] == ["search_tools", "get_tool", "call_tool"]  # declared order, every time
    assert seen["modern_cache"] == (3_600_000, "public")
    assert not seen["modern_search"].is_error and not seen["modern_call"].is_error, seen["modern_call"]
    before, after = seen["before"], seen["after"]
    # counters move with requests; syncs and health were recorded before the first request
    assert value(after, "kg_tools_mcp_calls_total", face="gateway", tool="search_tools", outcome="ok") == 1 + value(
        before, "kg_tools_mcp_calls_total", face="gateway", tool="search_tools", outcome="ok"
    )
    assert value(after, "kg_tools_mcp_calls_total", face="gateway", tool="call_tool", outcome="ok") >= 2 + value(
        before, "kg_tools_mcp_calls_total", face="gateway", tool="call_tool", outcome="ok"
    )
    assert value(after, "kg_tools_upstream_calls_total", server="time", outcome="ok") == 1 + value(
        before, "kg_tools_upstream_calls_total", server="time", outcome="ok"
    )
    assert value(before, "kg_tools_gateway_syncs_total", server="time", outcome="ok") >= 1
    assert value(before, "kg_tools_upstream_up", server="time") == 1
    assert value(before, "kg_tools_upstream_up", server="meta") == 1

    # the upstream received the upstream-call span's traceparent in _meta
    meta = json.loads(seen["meta"].content[0].text)
    finished = {s.name: s for s in spans.get_finished_spans()}
    assert {"gateway search_tools", "gateway call_tool", "upstream tools/call"} <= set(finished), list(finished)
    _, trace_id, span_id, _ = meta["traceparent"].split("-")
    by_id = {format(s.context.span_id, "016x"): s for s in spans.get_finished_spans()}
    names = {s.context.span_id: s.name for s in spans.get_finished_spans()}
    sent = by_id[span_id]  # the SDK's client span of tools/call, a child of the gateway's upstream span
    assert format(sent.context.trace_id, "032x") == trace_id
    upstream_span = by_id[format(sent.parent.span_id, "016x")]
    assert upstream_span.name == "upstream tools/call" and upstream_span.attributes["mcp.server"] == "meta"
    assert names[upstream_span.parent.span_id] == "gateway call_tool"


def test_metrics_need_a_token_off_loopback():
    """The guard serves /metrics without authentication only on a loopback bind."""

    async def app(scope, receive, send):  # the MCP app behind the guard: never reached for /metrics
        raise AssertionError("not the MCP app")

    def authenticate(headers, address):
        return "agent" if headers.get("authorization") == f"Bearer {TOKEN}" else None

    def guard(open_: bool) -> TestClient:
        return TestClient(SessionGuard(app, authenticate, set, 1, 1, metrics=True, metrics_open=open_))

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.1.2.3")
    assert guard(True).get("/metrics").status_code == 200
    assert guard(False).get("/metrics").status_code == 401
    page = guard(False).get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
    assert page.status_code == 200 and "kg_tools_mcp_calls_total" in page.text
