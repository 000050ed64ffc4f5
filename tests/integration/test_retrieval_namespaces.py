"""Retrieval results are (catalog, name) (issue 30): two catalogs holding the same tools -- same names, same
descriptions -- are both returned by a search over every catalog, each tool with its catalog, on every path
(the default one-round-trip search, the seed cache's light path, the staged search + Expand, the live
expansion, REST, MCP); a catalog filter returns that catalog's tools only. Real Neo4j throughout."""

from __future__ import annotations

import json

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client

from kg_tools.api.app import create_app
from kg_tools.ingest import load_catalog
from kg_tools.mcp_server import McpBackend, build_server
from kg_tools.retrieval import Pipeline, RetrievalRequest
from kg_tools.retrieval.seed_cache import HISTORY
from tests.conftest import wipe
from tests.integration.test_cli_load import tool

pytestmark = pytest.mark.integration
quiet = lambda *_: None  # noqa: E731
SHOP = [
    tool("login", description="Log in to the shop."),
    tool("get_order", ["login"], description="Get an order from the shop."),
    tool("cancel_order", ["get_order"], description="Cancel an order in the shop."),
]
BOTH = {(c, n) for c in ("pizza", "books") for n in ("cancel_order", "get_order", "login")}
ASK = {"query": "cancel my order", "k": 2, "K": 6}


@pytest.fixture
def twins(graph, embedder):
    """Two catalogs with the very same tools."""
    wipe(graph)
    load_catalog(graph, embedder, SHOP, "pizza", log=quiet)
    load_catalog(graph, embedder, SHOP, "books", log=quiet)
    return graph


def found(pipeline: Pipeline, **fields) -> list[tuple[str | None, str]]:
    return [(t.catalog, t.name) for t in pipeline.retrieve(RetrievalRequest(**{**ASK, **fields})).tools]


@pytest.mark.parametrize(
    "fields",
    [
        {},  # the default: search + expansion from the closures in one round trip
        {"depth": 3},  # the live expansion (expand_details by name and catalog)
        {"mode": "fulltext"},  # the staged search, then Expand with the seeds' catalogs
    ],
    ids=["default", "live-expansion", "staged"],
)
def test_a_search_over_every_catalog_returns_both_catalogs_tools(settings, twins, embedder, fields):
    pipeline = Pipeline(twins, embedder, settings)
    tools = found(pipeline, **fields)
    assert len(tools) == len(set(tools)) == 6 and set(tools) == BOTH, tools
    seeds = [(c, n) for c, n in tools if n == "cancel_order"]
    assert {c for c, _ in seeds} == {"pizza", "books"}
    # each seed is followed by its own catalog's dependencies
    first = tools.index(seeds[0])
    assert {c for c, _ in tools[first : first + 3]} == {seeds[0][0]}


def test_a_catalog_filter_returns_that_catalogs_tools_only(settings, twins, embedder):
    pipeline = Pipeline(twins, embedder, settings)
    for catalog in ("pizza", "books"):
        tools = found(pipeline, catalog=catalog)
        assert tools == [(catalog, "cancel_order"), (catalog, "get_order"), (catalog, "login")]
        assert found(pipeline, catalogs=[catalog]) == tools


def test_the_seed_cache_keeps_both_catalogs_rows(settings, twins, embedder):
    """The warm-up stores a row per (catalog, name); the light path (search, rows from memory) answers as the
    full query does."""
    pipeline = Pipeline(twins, embedder, settings)
    cache = pipeline.env.seed_cache
    assert cache is not None
    expected = found(pipeline)
    assert pipeline.warm_seed_cache() == 6 and len(cache) == 6
    for _ in range(HISTORY):  # until the hit rate sends the light search
        tools = found(pipeline)
    assert cache.prefer_light()
    assert tools == expected and set(tools) == BOTH


def test_rest_and_mcp_results_carry_the_catalog(settings, twins, embedder):
    with TestClient(create_app(settings, graph=twins, embedder=embedder)) as client:
        answer = client.post("/v1/retrieve", json=ASK)
        assert answer.status_code == 200, answer.text
        assert {(t["catalog"], t["name"]) for t in answer.json()["tools"]} == BOTH
        one = client.post("/v1/retrieve", json={**ASK, "catalog": "books"}).json()["tools"]
        assert {t["catalog"] for t in one} == {"books"} and len(one) == 3
        schema = client.get("/openapi.json").json()["components"]["schemas"]["ToolHit"]
        assert "catalog" in schema["properties"] and "catalog" not in schema.get("required", [])

    async def search():
        async with Client(build_server(McpBackend(settings, graph=twins, embedder=embedder))) as client:
            return await client.call_tool("search_tools", {"query": ASK["query"], "k": 2, "K": 6})

    result = anyio.run(search)
    assert not result.is_error
    assert {(t["catalog"], t["name"]) for t in json.loads(result.content[0].text)["tools"]} == BOTH
