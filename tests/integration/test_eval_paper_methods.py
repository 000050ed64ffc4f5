"""The seed papers' methods (benchmarks/eval/paper_methods.py) on the tiny benchmark of test_eval.py:
GRTF without the K fill, its LLM rerank of the top 3 only, ToolScope's per-sub-query fusion, RPS's union."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from benchmarks.commands.eval import eval_group
from benchmarks.eval import paper_methods
from benchmarks.eval.datasets import EvalInstance
from benchmarks.eval.runner import GraphOptions, ensure_catalog, method_catalog, run_method, select_methods
from kg_tools.commands.context import AppContext
from kg_tools.errors import EvalError
from kg_tools.retrieval.pipeline import Pipeline
from kg_tools.retrieval.request import RetrievalRequest, RetrievalResponse, StageInfo
from kg_tools.settings import Settings
from tests.integration.test_eval import bench, bench_dir  # noqa: F401 - fixtures
from tests.support.fake_openai import FakeOpenAI

# Some of these tests need no Neo4j; the file runs with the integration tests (tests/conftest.py places files by marker).
pytestmark = pytest.mark.integration

TWO_STEPS = "Convert 20 dollars to euros, then water the garden plants."


@pytest.fixture
def pipeline(empty_graph, embedder, settings, bench):  # noqa: F811
    ensure_catalog(empty_graph, embedder, bench, settings, lambda *_: None)
    return Pipeline(empty_graph, embedder, settings)


def _request(query, **fields):
    return RetrievalRequest(query=query, **fields)


@pytest.mark.integration
def test_grtf_paper_never_fills_K(pipeline):
    request = _request("Start the garden sprinkler to water my plants and flowers.", mode="vector", k=1, K=3)
    filled = pipeline.retrieve(request)
    assert filled.names[0] == "water_the_garden_plants" and len(filled.names) == 3  # the pipeline fills K
    assert paper_methods.fill_start(filled) == 1
    assert paper_methods.without_fill(pipeline, request).names == ["water_the_garden_plants"]
    # no fill needed: the response is the pipeline's own
    whole = _request("Convert an amount of money from dollars to euros.", mode="vector", k=1, K=3)
    assert (
        paper_methods.without_fill(pipeline, whole).names
        == pipeline.retrieve(whole).names
        == [
            "convert_currency",
            "get_wifi_status",
            "get_current_date",
        ]
    )


def test_a_changed_fill_note_is_an_error_not_a_silent_cut():
    response = RetrievalResponse(tools=[], stages=[StageInfo(name="fill", detail="filled it")], timing_ms={})
    with pytest.raises(EvalError, match="fill note changed"):
        paper_methods.fill_start(response)


@pytest.mark.integration
def test_rps_gives_each_subtask_its_own_K_and_takes_the_union(pipeline):
    method = method_catalog(30, GraphOptions(), "none")["rps"]
    assert paper_methods.subtasks(TWO_STEPS) == ["Convert 20 dollars to euros", "water the garden plants"]
    gold = frozenset({"convert_currency", "water_the_garden_plants"})
    [result] = run_method(pipeline, method, [EvalInstance(TWO_STEPS, gold, "convert_currency")], "toollinkos").results
    assert set(result.names[:2]) == gold  # each subtask's best first
    assert len(result.names) == 5  # the union of the two top-30 lists: the whole tiny catalog
    assert result.scores["Recall@10/step"] == 1.0 and result.scores["tools@10/step"] == 5.0
    assert result.scores["Recall@10"] == 1.0


@pytest.mark.integration
def test_toolscope_puts_each_sub_querys_top_1_first(pipeline):
    method = method_catalog(30, GraphOptions(), "none")["toolscope"]
    assert method.request | {"mode": "hybrid", "alpha": 1.0, "depth": 0} == method.request
    request = _request(TWO_STEPS, K=30, **method.request)
    lists = [pipeline.retrieve(request.model_copy(update={"query": q})) for q in paper_methods.subtasks(TWO_STEPS)]
    response = paper_methods.per_subquery_toolscope(pipeline, request)
    assert response.names[:2] == [lists[0].names[0], lists[1].names[0]]
    assert {"convert_currency", "water_the_garden_plants"} == set(response.names[:2])
    assert sorted(response.names) == sorted(set(lists[0].names) | set(lists[1].names))


def test_papers_methods_are_listed_and_the_llm_one_needs_an_llm(bench_dir):  # noqa: F811

    result = CliRunner().invoke(
        eval_group, ["toollinkos", str(bench_dir), "--methods", "list"], obj=AppContext(Settings())
    )
    assert result.exit_code == 0, result.output
    listed = [line.split()[0] for line in result.output.splitlines() if line.strip()]
    assert {"grtf_paper", "grtf_paper_rerank", "grtf_paper_fill", "toolscope", "rps"} <= set(listed)
    with pytest.raises(EvalError, match="grtf_paper_rerank needs an LLM"):
        select_methods(["grtf_paper_rerank"], 30, GraphOptions(), "none", llm_configured=False)
    assert select_methods(["grtf_paper_rerank"], 30, GraphOptions(), "llm", llm_configured=True)


@pytest.mark.integration
def test_grtf_paper_rerank_shows_the_llm_the_top_3_only(empty_graph, embedder, llm_settings, fake_llm, bench):  # noqa: F811
    ensure_catalog(empty_graph, embedder, bench, llm_settings, lambda *_: None)
    names = {t["name"] for t in bench.tools}

    def handler(req):
        prompt = FakeOpenAI.user_prompt(req)
        shown = [n for n in names if f"- {n}:" in prompt]
        return json.dumps({"tools": sorted(shown)})  # alphabetical: a visible reorder

    fake_llm.script(handler)
    pipeline = Pipeline(empty_graph, embedder, llm_settings)
    method = method_catalog(30, GraphOptions(), "llm")["grtf_paper_rerank"]
    query = "Convert an amount of money from dollars to euros."
    [result] = run_method(pipeline, method, [EvalInstance(query, frozenset(names), None)], "toollinkos").results
    prompts = [FakeOpenAI.user_prompt(r) for r in fake_llm.requests]
    assert len(prompts) == 1
    shown = [n for n in names if f"- {n}:" in prompts[0]]
    assert len(shown) == 3  # the paper's k = 3 seeds, not the 20 of our rerank-llm
    assert result.seeds == sorted(shown)  # the LLM's order of the three seeds
