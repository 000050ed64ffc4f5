"""Traces and metrics (issue 31 item 4): one retrieve yields a span tree in the SDK's in-memory exporter
(the REST request, `retrieve`, one child per stage, `embed`), a caller's `traceparent` becomes its parent;
`/metrics` parses with prometheus_client's parser and its counters move with requests; `kg-tools mcp`
calls are spans and counted."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient
from mcp import Client
from prometheus_client.parser import text_string_to_metric_families

from kg_tools.api.app import create_app
from kg_tools.mcp_server import McpBackend, build_server
from kg_tools.telemetry import MCP_CALLS
from tests.support import synthetic_catalog as syn
from tests.support.spans import in_memory_spans

pytestmark = pytest.mark.integration

QUERY = "book a flight to Paris"


@pytest.fixture(scope="module")
def spans():
    return in_memory_spans()


@pytest.fixture(scope="module")
def api(settings, graph, embedder):
    graph.write("MATCH (n) DETACH DELETE n")
    syn.load(graph, embedder)
    with TestClient(create_app(settings, graph=graph, embedder=embedder)) as client:
        yield client


def samples(client) -> dict[tuple[str, tuple], float]:
    page = client.get("/metrics")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/plain")
    out = {}
    for family in text_string_to_metric_families(page.text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def test_one_retrieve_is_a_span_tree(api, spans):
    spans.clear()
    parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    answer = api.post("/v1/retrieve", json={"query": QUERY, "k": 2, "K": 5}, headers={"traceparent": parent})
    assert answer.status_code == 200, answer.text
    finished = {s.name: s for s in spans.get_finished_spans()}
    root, retrieve = finished["POST /v1/retrieve"], finished["retrieve"]  # FastAPI's request span, ours
    assert format(root.context.trace_id, "032x") == "0af7651916cd43dd8448eb211c80319c"  # the caller's trace
    assert root.parent.span_id == int("b7ad6b7169203331", 16)
    assert retrieve.context.trace_id == root.context.trace_id
    stages = [s for s in spans.get_finished_spans() if s.parent and s.parent.span_id == retrieve.context.span_id]
    names = {s.name for s in stages}  # the plan's stages: the default fuses search and expand in one query
    assert "order" in names and any(n.startswith("search") for n in names)
    assert "embed" in finished and finished["embed"].context.trace_id == root.context.trace_id


def test_metrics_parse_and_move_with_requests(api):
    before = samples(api)
    key = ("kg_tools_http_requests_total", (("method", "POST"), ("route", "/v1/retrieve"), ("status", "200")))
    missing = ("kg_tools_errors_total", (("code", "tool_not_found"), ("surface", "rest")))
    for _ in range(2):
        assert api.post("/v1/retrieve", json={"query": QUERY}).status_code == 200
    assert api.get("/v1/tools/no_such_tool").status_code == 404
    after = samples(api)
    assert after[key] - before.get(key, 0) == 2
    assert after[missing] - before.get(missing, 0) == 1
    latency = ("kg_tools_http_request_seconds_count", (("method", "POST"), ("route", "/v1/retrieve")))
    assert after[latency] - before.get(latency, 0) == 2
    # route templates, never raw paths: the unknown tool's name is not a label
    assert not any("no_such_tool" in str(labels) for _, labels in after)


def test_kg_tools_mcp_calls_are_spans_and_counted(settings, graph, embedder, api, spans):

    server = build_server(McpBackend(settings, graph=graph, embedder=embedder))
    spans.clear()
    ok_before = MCP_CALLS.labels("mcp", "search_tools", "ok")._value.get()
    err_before = MCP_CALLS.labels("mcp", "get_tool", "error")._value.get()

    async def main():
        async with Client(server) as client:
            await client.call_tool("search_tools", {"query": QUERY})
            missing = await client.call_tool("get_tool", {"name": "no_such_tool"})
            assert missing.is_error if hasattr(missing, "is_error") else missing.isError

    asyncio.run(main())
    assert MCP_CALLS.labels("mcp", "search_tools", "ok")._value.get() == ok_before + 1
    assert MCP_CALLS.labels("mcp", "get_tool", "error")._value.get() == err_before + 1
    names = [s.name for s in spans.get_finished_spans()]
    assert "mcp search_tools" in names and "retrieve" in names and "mcp get_tool" in names
