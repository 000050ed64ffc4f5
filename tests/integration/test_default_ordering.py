"""The default pipeline's ordering levers against a real Neo4j (hand-made catalog, known answers)."""

import pytest

from kg_tools.retrieval import Pipeline, RetrievalRequest, plan
from kg_tools.retrieval.stages.rerank import Rerank
from tests.integration.test_retrieval_pipeline import unfilled
from tests.support import synthetic_catalog as syn
from tests.support.synthetic_catalog import A, B, C, D, E, F, H

pytestmark = pytest.mark.integration


@pytest.fixture
def pipeline(graph, embedder, settings):
    syn.load(graph, embedder)
    return Pipeline(graph, embedder, settings)


class StagedRerank(Rerank):
    """The rerank stage as if it needed the search's pool: the plan keeps search and expansion apart."""

    def __init__(self, env, method):
        super().__init__(env, method)
        self.on_expanded_rows = False


@pytest.fixture
def staged(pipeline, monkeypatch):
    """retrieve() on the staged path (Search, Rerank, Expand apart) for requests that take one round trip."""

    def retrieve(request):
        with monkeypatch.context() as m:
            m.setattr(plan, "Rerank", StagedRerank)
            planned = [type(s).__name__ for s in pipeline.plan(request) if type(s).__name__ != "ServerScore"]
            assert planned[:2] == ["Search", "StagedRerank"]  # (server-score: no servers here, nothing blended)
            return pipeline.retrieve(request)

    return retrieve


def test_default_and_staged_offline_rescoring_agree(pipeline, staged):
    for query in (syn.document(A), syn.document(F) + " in Paris on 2025-03-14", "book a flight", "hotel in Japan"):
        one_trip = pipeline.retrieve(RetrievalRequest(query=query))
        assert one_trip.names == staged(RetrievalRequest(query=query)).names
        assert [s.name for s in one_trip.stages][:3] == ["search", "expand", "rerank-offline"]
        plain = pipeline.retrieve(RetrievalRequest(query=query, rerank="none"))
        assert "rerank-offline" not in [s.name for s in plain.stages]


def test_the_old_stage_names_are_the_request_fields(pipeline):
    """Issue 32: `{"stages": ["fusion-rrf"]}` dropped the rescoring of a one-query request; now a fusion
    choice changes nothing for it, and `rerank-offline` is the default."""
    for query in ("book a hotel in Japan for two nights", syn.document(F) + " in Paris on 2025-03-14"):
        default = pipeline.retrieve(RetrievalRequest(query=query))
        for stages in (["fusion-rrf"], ["fusion-max"], ["rerank-offline"]):
            same = pipeline.retrieve(RetrievalRequest(query=query, stages=stages))
            assert (same.names, same.stages) == (default.names, default.stages), stages


def test_the_seed_order_does_not_depend_on_k(pipeline, staged):
    """The rescoring runs for every k: raising k appends seeds (and their dependencies) after the
    same ones (it used to be skipped on the one-round-trip path once k reached the pool of 10),
    and the one-round-trip and staged paths agree."""
    for query in (
        "book a hotel in Japan for two nights",
        "what is the weather in the city of Lyon",
        syn.document(F) + " in Paris on 2025-03-14",
    ):
        names = {}
        for k in (1, 3, 10, 12):
            one_trip = pipeline.retrieve(RetrievalRequest(query=query, k=k, K=50))
            assert one_trip.names == staged(RetrievalRequest(query=query, k=k, K=50)).names, (query, k)
            assert "rerank-offline" in [s.name for s in one_trip.stages], (query, k)
            names[k] = one_trip.names
        for small, large in ((1, 3), (3, 10), (10, 12)):
            assert names[large][: len(names[small])] == names[small], (query, small, large)


def test_supplied_value_dependencies_go_last_in_their_seed(pipeline):
    query = {"query": syn.document(A) + " on 2025-03-14", "catalog": "syn-seeds", "k": 1, "prefer_direct": True}
    # A's direct-first order is B, D, C, E, H; C is reached through travel_date, which the query gives
    assert unfilled(pipeline.retrieve(RetrievalRequest(**query, supplied_last=False))) == [A, B, D, C, E, H]
    assert unfilled(pipeline.retrieve(RetrievalRequest(**query))) == [A, B, D, H, C, E]
    # without a date nothing moves
    assert unfilled(pipeline.retrieve(RetrievalRequest(**{**query, "query": syn.document(A)}))) == [A, B, D, C, E, H]
