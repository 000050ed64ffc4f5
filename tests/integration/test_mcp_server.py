"""`kg-tools mcp` over stdio and streamable HTTP, driven by the official SDK's client (ClientSession)."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from kg_tools import PROJECT_ROOT
from kg_tools.mcp_server import McpBackend
from kg_tools.processes import free_port
from kg_tools.retrieval import Pipeline, RetrievalRequest
from tests.support import synthetic_catalog as syn
from tests.support.cli_process import kg_tools_env, wait_for_port
from tests.support.synthetic_catalog import A, B, C, H

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def server_env(settings, graph, embedder):
    syn.load(graph, embedder)
    return kg_tools_env(settings)


def expected_names(settings, graph, embedder, **fields) -> list[str]:
    return Pipeline(graph, embedder, settings).retrieve(RetrievalRequest(**fields)).names


async def exercise(session) -> dict:
    """List the tools and call both, plus a bad argument and a missing tool; return what came back."""
    await session.initialize()
    listed = {t.name: t for t in (await session.list_tools()).tools}
    search = await session.call_tool("search_tools", {"query": syn.document(A), "k": 2, "K": 6, "catalog": "syn-seeds"})
    bad = await session.call_tool("search_tools", {"query": "book a flight", "k": 0})
    missing = await session.call_tool("get_tool", {"name": "no_such_tool"})
    tool = await session.call_tool("get_tool", {"name": A})  # the session still works after errors
    return {"listed": listed, "search": search, "bad": bad, "missing": missing, "tool": tool}


def check(result: dict, expected: list[str]) -> None:
    listed = result["listed"]
    assert set(listed) == {"search_tools", "get_tool"}
    assert "dependencies" in listed["search_tools"].description
    assert listed["search_tools"].input_schema["properties"]["k"]["maximum"] == 50
    assert listed["search_tools"].input_schema["required"] == ["query"]
    # typed results: each tool publishes its output schema, and its structured content is its text
    assert {"tools", "stages", "timing_ms"} <= set(listed["search_tools"].output_schema["properties"])
    assert {"name", "spec", "function", "dependencies"} <= set(listed["get_tool"].output_schema["properties"])

    search = result["search"]
    assert not search.is_error
    payload = search.structured_content
    assert payload == json.loads(search.content[0].text)
    names = [t["name"] for t in payload["tools"]]
    assert names == expected  # exactly what the pipeline returns in-process
    assert names[:4] == [A, H, B, D_OF_B]
    via_c = next(t for t in payload["tools"] if t["name"] == C)["via"][0]
    assert via_c == {
        "from": A,
        "type": "PARAMETER_DIRECTLY_DEPENDS_ON",
        "parameter_name": "travel_date",
        "reason": "needs get_current_date",
        "inferred": False,  # a stated edge: no inference confidence
        "confidence": None,
    }
    assert {"name", "kind", "role", "score", "via", "spec", "function"} <= set(payload["tools"][0])

    # what the model can correct is a tool result with isError (kg_tools/mcp_errors.py), the session goes on
    assert result["bad"].is_error
    assert "k" in result["bad"].content[0].text and "greater than or equal to 1" in result["bad"].content[0].text
    assert result["missing"].is_error
    assert result["missing"].content[0].text == "Error executing tool get_tool: tool not found: 'no_such_tool'"

    tool = result["tool"]
    assert not tool.is_error
    detail = tool.structured_content
    assert detail == json.loads(tool.content[0].text)
    assert detail["name"] == A and detail["kind"] == "regular"
    assert [(d["name"], d["type"], d["parameter_name"]) for d in detail["dependencies"]] == [
        (H, "TOOL_INDIRECTLY_DEPENDS_ON", None),
        (B, "TOOL_DIRECTLY_DEPENDS_ON", None),
        (C, "PARAMETER_DIRECTLY_DEPENDS_ON", "travel_date"),
    ]


D_OF_B = syn.D  # B -> D comes depth-first right after B


def test_mcp_over_stdio(server_env, settings, graph, embedder):
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kg_tools.cli", "mcp"], env=server_env, cwd=str(PROJECT_ROOT)
    )

    async def run():
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                return await exercise(session)

    expected = expected_names(settings, graph, embedder, query=syn.document(A), k=2, K=6, catalog="syn-seeds")
    check(anyio.run(run), expected)


def test_mcp_over_streamable_http(server_env, settings, graph, embedder):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg_tools.cli", "mcp", "--transport", "http", "--port", str(port)],
        env=server_env,
        cwd=str(PROJECT_ROOT),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_port(port, proc, "kg-tools mcp --transport http", timeout=90)

        async def run():
            with anyio.fail_after(120):
                async with (
                    streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write),
                    ClientSession(read, write) as session,
                ):
                    return await exercise(session)

        expected = expected_names(settings, graph, embedder, query=syn.document(A), k=2, K=6, catalog="syn-seeds")
        check(anyio.run(run), expected)
        assert proc.poll() is None  # errors did not crash the server
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_the_server_warms_its_seed_cache_in_the_background(server_env, settings, graph, embedder):
    service = McpBackend(settings, graph=graph, embedder=embedder)
    assert len(service.pipeline.env.seed_cache) == 0
    thread = service.warm_up_in_background()
    assert thread.daemon
    thread.join(timeout=60)
    canonical = graph.read("MATCH (t:Tool) WHERE NOT (t)-[:MERGED_INTO]->(:Tool) RETURN count(t) AS n")[0]["n"]
    assert not thread.is_alive() and len(service.pipeline.env.seed_cache) == canonical > 0
    query = syn.document(A)
    assert service.search(query=query)["tools"][0]["name"] == A
    assert [t["name"] for t in service.search(query=query)["tools"]] == expected_names(
        settings, graph, embedder, query=query
    )
