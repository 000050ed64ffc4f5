"""Issue 30, item 1, with the real datasets: a graph that also holds ToolLinkOS and Seal-Tools (loaded as
`kg-tools eval` loads them) and `kg-tools gateway --transport http` fronting the real filesystem and time
servers. Without a `server` argument, search_tools finds the gateway's own tools, not [] (skipped when the
datasets are absent: KG_TOOLS_DATASETS)."""

from __future__ import annotations

import json

import anyio
import pytest

from benchmarks.eval.datasets import toollinkos
from benchmarks.eval.runner import ensure_catalog
from kg_tools.ingest import load_catalog
from kg_tools.loaders import seal_tools
from tests.conftest import wipe
from tests.integration.test_gateway import mcp_servers  # noqa: F401 - the session fixture installing the real servers
from tests.support.cli_process import kg_tools_env, start_http, stop_http
from tests.support.mcp_http import bearer_session

pytestmark = pytest.mark.integration

TOKEN = "crowding-test-" + "t" * 20
QUERIES = {
    "read the readme file": "filesystem__read_text_file",
    "get the current time in a city": "time__get_current_time",
}


def crowded_graph(graph, embedder, settings, datasets) -> None:
    """ToolLinkOS (replacing the graph, as `kg-tools eval toollinkos` does), then Seal-Tools beside it (as
    `kg-tools eval seal-tools` does)."""
    wipe(graph)
    ensure_catalog(graph, embedder, toollinkos(datasets / "toollinkos"), settings, lambda *_: None)
    seal = seal_tools.load(datasets / "seal-tools")
    load_catalog(graph, embedder, seal.tools, seal.catalog, batch_size=settings.write_batch_size, log=lambda *_: None)


def test_the_gateway_finds_its_tools_in_a_graph_crowded_by_the_real_datasets(  # noqa: F811
    settings, graph, embedder, datasets, mcp_servers, tmp_path
):
    if not (datasets / "seal-tools").is_dir():
        pytest.skip(f"Seal-Tools not found at {datasets / 'seal-tools'}")
    crowded_graph(graph, embedder, settings, datasets)
    project = tmp_path / "project"
    project.mkdir()
    (project / "README.md").write_text("# Crowded\n")
    config = {
        "mcpServers": {
            "filesystem": {"command": "node", "args": [str(mcp_servers["filesystem"]), str(project)]},
            "time": {"command": str(mcp_servers["time"]), "args": ["--local-timezone", "Etc/UTC"]},
        },
        "kg-tools": {"start_timeout": 60, "profiles": {"agent": {"token": TOKEN}}},
    }
    path = tmp_path / "gateway.json"
    path.write_text(json.dumps(config))
    found: dict[str, list[dict]] = {}

    async def search():
        async with bearer_session(f"http://127.0.0.1:{port}/mcp", TOKEN) as session:
            await session.initialize()
            for query in QUERIES:
                result = await session.call_tool("search_tools", {"query": query})
                assert not result.is_error, result.content
                found[query] = result.structured_content["tools"]

    gateway, port = start_http(
        ["gateway", "--config", str(path)], kg_tools_env(settings), "kg-tools gateway", cwd=tmp_path
    )
    try:
        anyio.run(search)
    finally:
        stop_http(gateway)
    for query, expected in QUERIES.items():
        names = [t["name"] for t in found[query]]
        assert names and names[0] == expected, (query, names)
        assert {t["server"] for t in found[query]} <= {"filesystem", "time"}, (query, names)
    counts = {r["catalog"]: r["n"] for r in graph.read("MATCH (t:Tool) RETURN t.catalog AS catalog, count(*) AS n")}
    assert counts["toollinkos"] > 100 and counts["seal-tools"] == 4076  # the crowd was there
