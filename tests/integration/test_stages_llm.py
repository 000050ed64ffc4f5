"""LLM-backed stages against the real Neo4j (ToolLinkOS) and an OpenAI-compatible server started by
the test: wiring (what the LLM sees, what its answer does) and every fallback."""

import json
import re

import pytest

from kg_tools.retrieval import Pipeline, RetrievalRequest
from kg_tools.retrieval.context import PipelineEnv, RetrievalContext
from kg_tools.retrieval.stages.search import Search
from tests.support.fake_openai import FakeOpenAI

pytestmark = pytest.mark.integration

QUERY = "Can you send my current location to my friend at john.doe@example.com?"


def run(graph, embedder, settings, **request):
    return Pipeline(graph, embedder, settings).retrieve(RetrievalRequest(**request))


def seeds(response):
    return [t.name for t in response.tools if t.role == "seed"]


def searched(graph, embedder, settings, query, pool=3):
    """The search candidates alone (Search stage, no expansion), best first."""

    ctx = RetrievalContext(request=RetrievalRequest(query=query), queries=[query])
    Search(PipelineEnv(graph, embedder, settings), pool).run(ctx)
    return [c.name for c in ctx.candidates]


def relative_order(response, names):
    """The given tools in the order the response lists them (seeds come in candidate order)."""
    wanted = set(names)
    return [n for n in response.names if n in wanted]


def stage(response, name):
    found = [s for s in response.stages if s.name == name]
    assert found, f"stage {name} not in {[s.name for s in response.stages]}"
    return found[0]


def enum_of(request):
    return request["response_format"]["json_schema"]["schema"]["properties"]["tools"]["items"]["enum"]


# -- LLM listwise rerank ----------------------------------------------------------------------


def test_llm_rerank_orders_seeds_by_the_llm_answer(tlos, embedder, llm_settings, fake_llm):
    fake_llm.script(lambda req: json.dumps({"tools": list(reversed(enum_of(req)))}))
    response = run(tlos, embedder, llm_settings, query=QUERY, rerank="llm", K=40)
    candidates = enum_of(fake_llm.requests[0])
    assert candidates == searched(tlos, embedder, llm_settings, QUERY, pool=llm_settings.llm_rerank_top_m)
    expected = list(reversed(candidates))[:3]
    assert response.names[0] == expected[0]
    assert relative_order(response, expected) == expected
    info = stage(response, "rerank-llm")
    assert not info.fallback and "ranked by the LLM" in info.detail
    assert QUERY in FakeOpenAI.user_prompt(fake_llm.requests[0])
    assert len(fake_llm.requests) == 1


# How many HTTP requests reach the server: an invalid answer is asked once more by the stage (2); a
# transport failure (5xx, timeout) is retried only inside the openai client (1 + llm_max_retries); a
# refusal is a valid HTTP answer and is never asked again (1).
ASKED_AGAIN, CLIENT_RETRIES, ONCE = "asked again", "client retries", "once"


@pytest.mark.parametrize(
    "answer,reason,requests",
    [
        ("this is not json", "invalid LLM answer", ASKED_AGAIN),
        (json.dumps({"tools": ["no_such_tool"]}), "invalid LLM answer", ASKED_AGAIN),
        ({"status": 500}, "LLM failed", CLIENT_RETRIES),
        ({"delay": 5.0, "content": "{}"}, "LLM failed", CLIENT_RETRIES),
        ({"refusal": "I cannot rank tools"}, "LLM failed: LLM refused", ONCE),
    ],
)
def test_llm_rerank_falls_back_to_search_order(tlos, embedder, llm_settings, fake_llm, answer, reason, requests):
    baseline = run(tlos, embedder, llm_settings, query=QUERY, rerank="none")  # the search order
    fake_llm.script(lambda req: answer)
    response = run(tlos, embedder, llm_settings, query=QUERY, rerank="llm")
    assert response.names == baseline.names
    info = stage(response, "rerank-llm")
    assert info.fallback and reason in info.detail and "search order kept" in info.detail
    assert response.timing_ms["llm"] > 0
    expected = {ASKED_AGAIN: 2, CLIENT_RETRIES: 1 + llm_settings.llm_max_retries, ONCE: 1}[requests]
    assert len(fake_llm.requests) == expected
    # every request is the same rerank question (a retry, not a different prompt)
    assert all(QUERY in FakeOpenAI.user_prompt(r) for r in fake_llm.requests)
    assert len({json.dumps(r, sort_keys=True) for r in fake_llm.requests}) == 1


def test_without_llm_every_llm_stage_says_offline(tlos, embedder, settings):
    offline = settings.model_copy(update={"openai_base_url": None})
    baseline = run(tlos, embedder, offline, query=QUERY, rerank="none")  # the search order
    response = run(tlos, embedder, offline, query=QUERY, rerank="llm", stages=["rewrite", "multi-query", "self-check"])
    assert response.names == baseline.names
    for name in ("rewrite", "multi-query", "self-check", "rerank-llm"):
        info = stage(response, name)
        assert info.fallback and "no LLM configured" in info.detail


def test_call_cap_per_request(tlos, embedder, llm_settings, fake_llm):
    capped = llm_settings.model_copy(update={"llm_max_calls_per_request": 1})
    fake_llm.script(
        lambda req: (
            json.dumps({"query": "share my location by e-mail"})
            if "Rewrite" in FakeOpenAI.user_prompt(req)
            else json.dumps({"tools": enum_of(req)})
        )
    )
    response = run(tlos, embedder, capped, query=QUERY, stages=["rewrite"], rerank="llm")
    assert not stage(response, "rewrite").fallback
    info = stage(response, "rerank-llm")
    assert info.fallback and "cap reached (1 per request)" in info.detail
    assert len(fake_llm.requests) == 1


# -- query transformation -----------------------------------------------------------------------


def test_rewrite_searches_the_rewritten_query(tlos, embedder, llm_settings, fake_llm):
    rewritten = "turn on the flashlight"
    fake_llm.script(lambda req: json.dumps({"query": rewritten}))
    response = run(tlos, embedder, llm_settings, query="it's so dark in here, help", stages=["rewrite"])
    direct = run(tlos, embedder, llm_settings, query=rewritten)
    assert response.names == direct.names
    assert stage(response, "rewrite").detail == f"rewritten: {rewritten!r}"


def test_decompose_sees_nearest_tools_and_fuses_toolscope_style(tlos, embedder, llm_settings, fake_llm):
    subs = ["turn on the flashlight", "check the battery level"]
    fake_llm.script(lambda req: json.dumps({"sub_requests": subs}))
    query = "Turn on the torch, and tell me how much battery is left"
    response = run(tlos, embedder, llm_settings, query=query, stages=["decompose"], k=3, K=40)
    prompt = FakeOpenAI.user_prompt(fake_llm.requests[0])
    assert len(re.findall(r"^- \w+: ", prompt, flags=re.M)) == 15  # RPS: M = 15 nearest tools as context
    info = stage(response, "decompose")
    assert not info.fallback and "2 sub-request(s) from the LLM" in info.detail
    assert "over 3 queries, toolscope fusion" in stage(response, "search").detail
    # each sub-request's own top-1 (searched alone) leads the seeds, original query first
    tops = list(dict.fromkeys(searched(tlos, embedder, llm_settings, q)[0] for q in [query, *subs]))
    assert response.names[0] == tops[0]
    assert relative_order(response, tops) == tops


def test_decompose_offline_split_is_labelled(tlos, embedder, settings):
    offline = settings.model_copy(update={"openai_base_url": None})
    response = run(
        tlos,
        embedder,
        offline,
        query="Turn on the flashlight and then check the battery level",
        stages=["decompose", "fusion-rrf"],
    )
    info = stage(response, "decompose")
    assert info.fallback and "offline split" in info.detail and "2 sub-request(s)" in info.detail
    assert "over 3 queries, rrf fusion" in stage(response, "search").detail


@pytest.mark.parametrize("answer", ["{{{", {"status": 500}, {"refusal": "no"}])
def test_decompose_llm_failure_falls_back_to_offline_split(tlos, embedder, llm_settings, fake_llm, answer):
    fake_llm.script(lambda req: answer)
    response = run(
        tlos,
        embedder,
        llm_settings,
        query="Turn on the flashlight and then check the battery level",
        stages=["decompose"],
    )
    info = stage(response, "decompose")
    assert info.fallback and "offline split" in info.detail


def test_multi_query_adds_variants(tlos, embedder, llm_settings, fake_llm):
    fake_llm.script(lambda req: json.dumps({"queries": ["share where I am by email", "email my position", QUERY]}))
    response = run(tlos, embedder, llm_settings, query=QUERY, stages=["multi-query"])
    assert "2 variant(s)" in stage(response, "multi-query").detail  # the copy of the request is dropped
    assert "over 3 queries" in stage(response, "search").detail


# -- self-check -------------------------------------------------------------------------------


def test_self_check_adds_the_missing_capability_as_last_seed(tlos, embedder, llm_settings, fake_llm):
    extra_query = "turn on the flashlight"
    expected = searched(tlos, embedder, llm_settings, extra_query)[0]
    fake_llm.script(lambda req: json.dumps({"missing_capability": True, "search_query": extra_query}))
    before = searched(tlos, embedder, llm_settings, QUERY)
    response = run(tlos, embedder, llm_settings, query=QUERY, stages=["self-check"], K=40)
    assert expected not in before
    assert relative_order(response, before[:2] + [expected]) == before[:2] + [expected]
    # the displaced third seed is not listed before the new one (K's fill may bring it back after it)
    names = response.names
    assert expected in seeds(response) and before[2] not in names[: names.index(expected)]
    assert f"added {expected} as seed 3" in stage(response, "self-check").detail


def test_self_check_runs_after_the_reranker_and_may_find_nothing(tlos, embedder, llm_settings, fake_llm):
    def answer(req):
        if "ToolRanking" in json.dumps(req["response_format"]):
            return json.dumps({"tools": enum_of(req)})
        return json.dumps({"missing_capability": False, "search_query": ""})

    fake_llm.script(answer)
    response = run(tlos, embedder, llm_settings, query=QUERY, stages=["self-check"], rerank="llm")
    names = [s.name for s in response.stages]
    assert names.index("rerank-llm") < names.index("self-check")
    assert stage(response, "self-check").detail == "LLM found nothing missing"
    # the fake LLM ranks the candidates as listed (search order): the search order's list
    assert response.names == run(tlos, embedder, llm_settings, query=QUERY, rerank="none").names
