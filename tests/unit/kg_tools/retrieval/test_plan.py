"""Issue 22 item 4: one retrieval plan. Every stage is listed in kg_tools/retrieval/plan.py (none
registers itself on import), build_plan is the one place a request becomes its stage sequence,
stages pass typed fields (no `options` dict), and one wiring function (kg_tools.services) builds
graph + embedder + pipeline for the API, the MCP server and the CLI."""

import subprocess
import sys

import pytest

from kg_tools.errors import UnknownStageError
from kg_tools.retrieval.context import PipelineEnv, RetrievalContext
from kg_tools.retrieval.plan import STAGES, build_plan
from kg_tools.retrieval.request import RetrievalRequest
from kg_tools.settings import Settings

ENV = PipelineEnv(graph=None, embedder=None, settings=Settings())  # type: ignore[arg-type]  # plans only


def plan(**fields):
    return [(type(s).__name__, getattr(s, "rescore", None)) for s in build_plan(RetrievalRequest(**fields), ENV)]


def test_a_fresh_process_sees_every_stage_listed_in_the_plan():
    # no stage registers itself on import: plan.py alone, imported first, lists them all
    code = "from kg_tools.retrieval.plan import STAGES; print(','.join(sorted(STAGES)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out.split(",") == sorted(STAGES)
    assert {"rerank-offline", "dedupe", "steps", "self-check", "rerank-llm", "enriched"} <= set(STAGES)
    assert RetrievalRequest.model_json_schema()["properties"]["stages"]["items"]["enum"] == sorted(STAGES)


def test_the_default_is_one_round_trip_with_the_rescoring_decided_by_the_plan():
    assert plan(query="book a flight") == [("SearchAndExpand", None), ("OrderAndTruncate", True)]
    assert plan(query="book a flight", rerank="none") == [("SearchAndExpand", None), ("OrderAndTruncate", False)]
    assert plan(query="book a flight", mode="hybrid") == [("SearchAndExpand", None), ("OrderAndTruncate", False)]


def test_staged_plans_put_each_stage_in_its_phase():
    assert [n for n, _ in plan(query="q", stages=["self-check", "dedupe"])] == [
        "Search",
        "Dedupe",
        "OfflineRerank",
        "SelfCheck",
        "Expand",
        "OrderAndTruncate",
    ]
    assert [n for n, _ in plan(query="q", stages=["dedupe"], rerank="llm")] == [
        "Search",
        "Dedupe",
        "LLMRerank",
        "Expand",
        "OrderAndTruncate",
    ]
    # a transform stage: no offline stage (steps rescores each list itself); rerank-offline named once
    assert [n for n, _ in plan(query="q", stages=["decompose"])] == [
        "Decompose",
        "Search",
        "Expand",
        "OrderAndTruncate",
    ]
    assert [n for n, _ in plan(query="q", stages=["rerank-offline"])].count("OfflineRerank") == 1
    steps = plan(query="fetch the page, then write it to a file", split_steps=True)
    assert [n for n, _ in steps][:2] == ["Steps", "Search"]


def test_unknown_stages_are_refused_and_the_context_has_typed_fields_only():
    with pytest.raises(UnknownStageError, match="teleport"):
        build_plan(RetrievalRequest(query="q", stages=["teleport"]), ENV)
    ctx = RetrievalContext(request=RetrievalRequest(query="q"))
    assert not hasattr(ctx, "options") and (ctx.fusion, ctx.source, ctx.rescore_each) == ("toolscope", None, False)
