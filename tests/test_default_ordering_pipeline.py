"""The default pipeline's ordering levers against a real Neo4j (hand-made catalog, known answers)."""
import pytest

from kg_tools.retrieval import Pipeline, RetrievalRequest
from tests import synthetic_catalog as syn
from tests.synthetic_catalog import A, B, C, D, E, F, H

pytestmark = pytest.mark.integration


@pytest.fixture
def pipeline(graph, embedder, settings):
    syn.load(graph, embedder)
    return Pipeline(graph, embedder, settings)


def test_default_and_staged_offline_rescoring_agree(pipeline):
    for query in (syn.document(A), syn.document(F) + " in Paris on 2025-03-14", "book a flight", "hotel in Japan"):
        one_trip = pipeline.retrieve(RetrievalRequest(query=query))
        staged = pipeline.retrieve(RetrievalRequest(query=query, stages=["rerank-offline"]))
        assert one_trip.names == staged.names
        assert "rerank-offline" in [s.name for s in one_trip.stages] + [s.name for s in staged.stages]
        plain = pipeline.retrieve(RetrievalRequest(query=query, rerank="none"))
        assert "rerank-offline" not in [s.name for s in plain.stages]


def test_supplied_value_dependencies_go_last_in_their_seed(pipeline):
    query = {"query": syn.document(A) + " on 2025-03-14", "catalog": "syn-seeds", "k": 1, "prefer_direct": True}
    # A's direct-first order is B, D, C, E, H; C is reached through travel_date, which the query gives
    assert pipeline.retrieve(RetrievalRequest(**query, supplied_last=False)).names == [A, B, D, C, E, H]
    assert pipeline.retrieve(RetrievalRequest(**query)).names == [A, B, D, H, C, E]
    # without a date nothing moves
    assert pipeline.retrieve(RetrievalRequest(**{**query, "query": syn.document(A)})).names == [A, B, D, C, E, H]
