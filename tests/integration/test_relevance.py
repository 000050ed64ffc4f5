"""The ordering's cosines of inferred dependencies to the query (kg_tools/retrieval/relevance.py) over real
tools in Neo4j: cypher/tool_vectors.cypher reads the stored embeddings by (catalog, name), and the default
request reads them once per graph version."""

from __future__ import annotations

import numpy as np
import pytest

from kg_tools.cypher import query
from kg_tools.deps import apply_results, infer_graph
from kg_tools.ingest import load_catalog
from kg_tools.loaders import openapi
from kg_tools.retrieval import Pipeline, RetrievalRequest
from tests.support import FIXTURES

pytestmark = pytest.mark.integration


def _tool(name: str, description: str) -> dict:
    return {"name": name, "description": description, "parameters": []}


def test_tool_vectors_are_read_by_catalog_and_name(empty_graph, embedder):
    load_catalog(empty_graph, embedder, [_tool("find", "Find songs by title.")], "music", log=lambda *_: None)
    load_catalog(empty_graph, embedder, [_tool("find", "Find chat messages.")], "chat", log=lambda *_: None)
    wanted = [{"name": "find", "catalog": "chat"}, {"name": "find", "catalog": "music"}, {"name": "x", "catalog": None}]
    rows = empty_graph.read_plain(query("tool_vectors"), {"tools": wanted})
    vectors = {r["catalog"]: np.asarray(r["embedding"]) for r in rows}
    assert sorted(vectors) == ["chat", "music"] and len(rows) == 2  # by catalog and name; unknown names left out
    assert vectors["chat"].shape == vectors["music"].shape and not np.allclose(vectors["chat"], vectors["music"])


def test_the_default_request_reads_the_vectors_once_per_graph_version(empty_graph, embedder, settings):
    # the shop's operations as plain function tools (no `http`): HTTP seeds have needed.py's rules instead
    tools = [{k: v for k, v in t.items() if k != "http"} for t in openapi.load(FIXTURES / "shop_openapi.yaml").tools]
    load_catalog(empty_graph, embedder, tools, "shop", log=lambda *_: None)
    results = infer_graph(empty_graph, embedder, settings, catalog="shop", method="offline")
    [run] = apply_results(empty_graph, results, 0.2)
    assert run["edges"] > 0
    pipeline = Pipeline(empty_graph, embedder, settings)
    request = RetrievalRequest(query="add a product to my cart", K=10)
    first = pipeline.retrieve(request)
    vectors = pipeline.env.tool_vectors
    known = dict(vectors._vectors)
    assert known, "the seeds' inferred dependencies and the next candidates were read"
    assert pipeline.retrieve(request).names == first.names
    assert dict(vectors._vectors).keys() == known.keys()  # nothing new to read at the same version
    off = Pipeline(empty_graph, embedder, settings.model_copy(update={"deps_query_relevance": 0.0}))
    assert set(off.retrieve(request).names) == set(first.names)  # the same tools, only their order may differ
    assert not off.env.tool_vectors._vectors
