"""Issue 29 item 2, wired: the default request attaches the :Core utility a step implies as the dependency of
the step's best tool (the `utilities` stage, after the expansion), and only then (real Neo4j, five real MCP
servers of benchmarks/data/real/catalog_mcp.json, `kg-tools core detect --apply`)."""

from __future__ import annotations

import pytest

from kg_tools.core_tools import detect
from kg_tools.ingest import load_catalog
from kg_tools.retrieval.pipeline import Pipeline
from kg_tools.retrieval.request import RetrievalRequest
from tests.conftest import wipe
from tests.integration.test_core_detect import mcp_tools

pytestmark = pytest.mark.integration

SAVE = "find the open issues labelled bug in acme/api and save the list to bugs.md"


@pytest.fixture(scope="module")
def pipeline(graph, embedder, settings):
    wipe(graph)
    load_catalog(graph, embedder, mcp_tools(), "mcp", log=lambda *_: None)
    return Pipeline(graph, embedder, settings)


def test_a_step_that_implies_a_utility_gets_the_catalogs_core_tool_after_its_best_tool(pipeline, graph):
    before = pipeline.retrieve(RetrievalRequest(query=SAVE, catalog="mcp", K=5))
    # no :Core yet: nothing to attach, and the stage says why
    assert [s.detail for s in before.stages if s.name == "utilities"] == [
        "implied file_write: no :Core utility of the kind"
    ]
    detect(graph, "mcp", apply=True)
    response = pipeline.retrieve(RetrievalRequest(query=SAVE, catalog="mcp", K=5))
    hit = next(t for t in response.tools if t.name == "filesystem__write_file")
    best = response.tools[0]
    assert best.role == "seed" and response.names[1] == "filesystem__write_file"
    assert (hit.role, hit.kind) == ("dependency", "core")
    assert [(v.from_, v.type, v.reason) for v in hit.via] == [(best.name, "IMPLIED_BY_STEP", "the step says 'bugs.md'")]
    [note] = [s.detail for s in response.stages if s.name == "utilities"]
    assert note == "request: 'bugs.md' -> filesystem__write_file (file_write)"
    # per-step: the step that says it gets it (step 2), after that step's best tool
    steps = pipeline.retrieve(RetrievalRequest(query=SAVE, catalog="mcp", K=10, stages=["per-step"]))
    hit = next(t for t in steps.tools if t.name == "filesystem__write_file")
    assert hit.step == 2 and hit.via[0].type == "IMPLIED_BY_STEP"
    # switched off: the answer of a request without the stage
    off = pipeline.retrieve(RetrievalRequest(query=SAVE, catalog="mcp", K=5, utilities=False))
    assert off.names == before.names and not any(s.name == "utilities" for s in off.stages)
    assert "filesystem__write_file" not in off.names[:1]


def test_a_request_that_implies_nothing_is_answered_as_without_the_stage(pipeline, graph):
    detect(graph, "mcp", apply=True)
    text = "list the open pull requests of acme/api"
    on = pipeline.retrieve(RetrievalRequest(query=text, catalog="mcp"))
    off = pipeline.retrieve(RetrievalRequest(query=text, catalog="mcp", utilities=False))
    assert on.names == off.names and not any(s.name == "utilities" for s in on.stages)
    # a catalog with no utility of the kind: nothing invented, the stage says why
    remember = pipeline.retrieve(RetrievalRequest(query="remember that Alice works at Acme", catalog="nothing-here"))
    assert remember.tools == []
