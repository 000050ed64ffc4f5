"""Issue 22 item 4 and issue 32 item 2: one retrieval plan of one shape. Every stage is listed in kg_tools/retrieval/plan.py (none
registers itself on import), build_plan is the one place a request becomes its stage sequence,
stages pass typed fields (no `options` dict), and one wiring function (kg_tools.services) builds
graph + embedder + pipeline for the API, the MCP server and the CLI."""

import subprocess
import sys

import pytest
from pydantic import ValidationError

from kg_tools.errors import UnknownStageError
from kg_tools.retrieval.context import PipelineEnv, RetrievalContext
from kg_tools.retrieval.plan import STAGES, build_plan, unmet_reads
from kg_tools.retrieval.request import RetrievalRequest
from kg_tools.retrieval.stages.order import OrderAndTruncate
from kg_tools.retrieval.stages.rerank import Rerank
from kg_tools.retrieval.stages.search import Search
from kg_tools.settings import Settings

ENV = PipelineEnv(graph=None, embedder=None, settings=Settings())  # type: ignore[arg-type]  # plans only


def plan(**fields):
    return [type(s).__name__ + (f"({s.method})" if isinstance(s, Rerank) else "") for s in stages_of(**fields)]


def stages_of(**fields):
    """The plan; without the utilities stage (on by default, after the expansion) unless `utilities` is given
    (tests/unit/kg_tools/retrieval/test_per_step.py plans it), nor the default server score unless
    `server_score` is given (test_the_server_score_is_part_of_the_default_where_scores_are_vector_scores)."""
    return build_plan(RetrievalRequest(**{"utilities": False, "server_score": False, **fields}), ENV)


def test_a_fresh_process_sees_every_stage_listed_in_the_plan():
    # no stage registers itself on import: plan.py alone, imported first, lists them all
    code = "from kg_tools.retrieval.plan import STAGES; print(','.join(sorted(STAGES)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out.split(",") == sorted(STAGES)
    assert {"rerank-offline", "dedupe", "steps", "self-check", "rerank-llm", "enriched", "fusion-rrf"} <= set(STAGES)
    assert RetrievalRequest.model_json_schema()["properties"]["stages"]["items"]["enum"] == sorted(STAGES)


def test_one_shape_the_default_searches_and_expands_in_one_round_trip():
    """The default is the one plan's shape with the query builder's optimisation: no post-search stage
    needs more than the expanded rows, so search and expansion are one query and the rescoring (the
    `rerank` stage, method offline) reorders the expanded rows."""
    assert plan(query="book a flight") == ["Search", "Rerank(offline)", "OrderAndTruncate"]
    search = stages_of(query="book a flight")[0]
    assert isinstance(search, Search) and search.expand and search.name == "search+expand"
    assert plan(query="book a flight", rerank="none") == ["Search", "OrderAndTruncate"]
    assert plan(query="book a flight", mode="hybrid") == ["Search", "OrderAndTruncate"]
    # a stage that needs the search's pool: the same shape without the optimisation
    staged = stages_of(query="book a flight", stages=["dedupe"])
    assert [type(s).__name__ for s in staged] == ["Search", "Dedupe", "Rerank", "Expand", "OrderAndTruncate"]
    assert not staged[0].expand and staged[0].name == "search" and not staged[2].expanded


def test_staged_plans_put_each_stage_in_its_phase():
    assert plan(query="q", stages=["self-check", "dedupe"]) == [
        "Search",
        "Dedupe",
        "Rerank(offline)",
        "SelfCheck",
        "Expand",
        "OrderAndTruncate",
    ]
    assert plan(query="q", stages=["dedupe"], rerank="llm") == [
        "Search",
        "Dedupe",
        "Rerank(llm)",
        "Expand",
        "OrderAndTruncate",
    ]
    # a transform stage: no rescoring of the fused lists (steps rescore each list themselves) ...
    assert plan(query="q", stages=["decompose"]) == ["Decompose", "Search", "Expand", "OrderAndTruncate"]
    # ... unless it is named
    assert plan(query="q", stages=["decompose", "rerank-offline"]).count("Rerank(offline)") == 1
    assert plan(query="q", stages=["rerank-offline"]) == plan(query="q")
    steps = plan(query="fetch the page, then write it to a file", split_steps=True)
    assert steps[:2] == ["Steps", "Search"]


def test_the_server_score_is_part_of_the_default_where_scores_are_vector_scores():
    """Issue 29: server-score runs by default, before the rescoring, on the rows of the one round trip;
    not for other scales (fulltext, hybrid, a transform's fused lists), nor twice when named."""
    assert plan(query="q", server_score=True) == ["Search", "ServerScore", "Rerank(offline)", "OrderAndTruncate"]
    default = stages_of(query="q", server_score=True)
    assert default[0].expand and default[1].expanded and default[1].by_default
    assert unmet_reads(default) == []
    assert plan(query="q", server_score=True, mode="vector", rerank="none") == [
        "Search",
        "ServerScore",
        "OrderAndTruncate",
    ]
    for other in ({"mode": "fulltext"}, {"mode": "hybrid"}, {"stages": ["decompose"]}, {"split_steps": True}):
        query = "fetch the page, then write it to a file"
        assert "ServerScore" not in plan(query=query, server_score=True, **other), other
    named = stages_of(query="q", server_score=True, stages=["server-score"])
    assert [type(s).__name__ for s in named].count("ServerScore") == 1 and not named[1].by_default
    assert plan(query="q", stages=["server-score"], mode="fulltext")[:2] == ["Search", "ServerScore"]
    staged = plan(query="q", server_score=True, stages=["dedupe"])
    assert staged == ["Search", "Dedupe", "ServerScore", "Rerank(offline)", "Expand", "OrderAndTruncate"]


def test_a_reranker_named_twice_runs_once():
    """Issue 32: `{"stages": ["rerank-llm"], "rerank": "llm"}` planned LLMRerank twice."""
    both = plan(query="q", stages=["rerank-llm"], rerank="llm")
    assert both.count("Rerank(llm)") == 1
    assert both == plan(query="q", rerank="llm") == plan(query="q", stages=["rerank-llm"])
    assert plan(query="q", stages=["rerank-cross-encoder"]) == plan(query="q", rerank="cross-encoder")


def test_a_fusion_choice_keeps_the_default_rescoring():
    """Issue 32: `{"stages": ["fusion-rrf"]}` on a one-step request silently dropped the default rescoring."""
    for name in ("fusion-rrf", "fusion-max", "fusion-round-robin"):
        assert plan(query="book a flight", stages=[name]) == plan(query="book a flight"), name
    request = RetrievalRequest(query="q", stages=["fusion-rrf"])
    assert request.fusion == "rrf"
    assert RetrievalRequest(query="q", fusion="max").fusion == "max"


def test_contradicting_choices_are_refused():
    with pytest.raises(ValidationError, match="rerank-llm.*cross-encoder"):
        RetrievalRequest(query="q", stages=["rerank-llm"], rerank="cross-encoder")
    with pytest.raises(ValidationError, match="fusion"):
        RetrievalRequest(query="q", stages=["fusion-rrf", "fusion-max"])
    with pytest.raises(ValidationError, match="fusion"):
        RetrievalRequest(query="q", stages=["fusion-rrf"], fusion="toolscope")
    # the same choice twice is no contradiction
    assert RetrievalRequest(query="q", stages=["rerank-offline"], rerank="offline").rerank == "offline"


def test_every_stage_reads_what_an_earlier_stage_wrote():
    requests = [
        {},
        {"rerank": "none"},
        {"stages": ["dedupe", "server-score", "self-check"], "rerank": "llm"},
        {"stages": ["rewrite", "decompose", "multi-query", "enriched"]},
        {"stages": ["steps", "rerank-offline"]},
    ]
    for fields in requests:
        stages = stages_of(query="q", **fields)
        assert unmet_reads(stages) == [], fields
        assert isinstance(stages[-1], OrderAndTruncate) and "tools" in stages[-1].writes
    # a plan whose order stage ran before the search would not be sound
    default = stages_of(query="q")
    assert unmet_reads(default[::-1]) == ["order: candidates", "rerank-offline: candidates"]
    for entry in STAGES.values():
        if entry.build is not None:
            stage = entry.build(ENV)
            assert stage.reads and stage.writes, stage.name


def test_unknown_stages_are_refused_and_the_context_has_typed_fields_only():
    with pytest.raises(UnknownStageError, match="teleport"):
        build_plan(RetrievalRequest(query="q", stages=["teleport"]), ENV)
    ctx = RetrievalContext(request=RetrievalRequest(query="q"))
    assert not hasattr(ctx, "options") and (ctx.fusion, ctx.source, ctx.rescore_each) == ("toolscope", None, False)
