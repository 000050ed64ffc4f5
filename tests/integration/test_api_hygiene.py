"""The smaller findings of issue 23 (item 13) that need the real Neo4j: `--replace` does not re-embed unchanged tools, a run whose tools were deleted is reported stale, deps infer over the API is bounded."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from kg_tools.deps.offline import ProposedEdge
from kg_tools.deps.store import apply_run, list_runs
from kg_tools.ingest import LoadMode, load_catalog

QUIET = {"log": lambda *_: None}


CATALOG = [{"name": f"tool_{i}", "description": f"does thing number {i}"} for i in range(6)]


@pytest.mark.integration
def test_replace_does_not_re_embed_unchanged_tools(graph, embedder, empty_graph):
    first = load_catalog(graph, embedder, CATALOG, "hygiene", mode=LoadMode.REPLACE, **QUIET)
    assert first.embedded == 6
    again = load_catalog(
        graph,
        embedder,
        CATALOG[:5] + [{"name": "tool_5", "description": "changed"}],
        "hygiene",
        mode=LoadMode.REPLACE,
        **QUIET,
    )
    assert again.embedded == 1  # only the changed tool
    smaller = load_catalog(graph, embedder, CATALOG[:3], "hygiene", mode=LoadMode.REPLACE, **QUIET)
    assert smaller.embedded == 0
    assert graph.read("MATCH (t:Tool) RETURN count(t) AS n")[0]["n"] == 3
    assert graph.read("MATCH (t:Tool) WHERE t.embedding IS NULL RETURN count(t) AS n")[0]["n"] == 0


@pytest.mark.integration
def test_a_run_whose_tools_were_deleted_is_reported_stale(graph, embedder, empty_graph, settings):
    load_catalog(graph, embedder, CATALOG, "hygiene", **QUIET)
    edge = ProposedEdge("tool_1", "tool_0", "TOOL_DIRECTLY_DEPENDS_ON", 0.9, "offline", "test")
    applied = apply_run(graph, "deps-hygiene", "hygiene", "offline", 0.5, [edge], [])
    assert applied["edges"] == 1
    assert [(r["id"], r["edges_in_graph"], r["stale"]) for r in list_runs(graph)] == [("deps-hygiene", 1, False)]
    with TestClient(create_app(settings, graph=graph, embedder=embedder)) as client:
        assert client.delete("/v1/tools/tool_1").status_code == 204
        runs = client.get("/v1/deps/runs").json()["runs"]
        assert [(r["id"], r["edges_in_graph"], r["stale"]) for r in runs] == [("deps-hygiene", 0, True)]
        assert client.delete("/v1/deps/runs/deps-hygiene").json() == {"run": "deps-hygiene", "removed": 0}
        assert client.get("/v1/deps/runs").json()["runs"] == []


@pytest.mark.integration
def test_deps_infer_over_the_api_is_bounded(graph, embedder, empty_graph, settings):
    load_catalog(graph, embedder, CATALOG, "big", **QUIET)
    load_catalog(
        graph,
        embedder,
        CATALOG[:0] + [{"name": "small_a", "description": "a"}, {"name": "small_b", "description": "b"}],
        "small",
        **QUIET,
    )
    bounded = settings.model_copy(update={"api_max_infer_tools": 4})
    with TestClient(create_app(bounded, graph=graph, embedder=embedder)) as client:
        started = time.perf_counter()
        everything = client.post("/v1/deps/infer", json={})
        assert time.perf_counter() - started < 5
        assert everything.status_code == 422, everything.text
        error = everything.json()["errors"][0]
        assert (error["field"], error["type"]) == ("catalog", "too_many_tools") and "8 tools" in error["message"]
        assert client.post("/v1/deps/infer", json={"catalog": "big"}).status_code == 422
        small = client.post("/v1/deps/infer", json={"catalog": "small"})
        assert small.status_code == 200, small.text
