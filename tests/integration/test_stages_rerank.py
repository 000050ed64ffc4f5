"""Offline post-search stages against the real Neo4j: the cross-encoder rerank with a tiny randomly
initialised model built here, its not-configured path, and duplicate removal."""

import pytest

from kg_tools.errors import ConfigurationError
from kg_tools.ingest import LoadMode, load_catalog
from kg_tools.retrieval import Pipeline, RetrievalRequest
from kg_tools.retrieval.context import PipelineEnv, RetrievalContext
from kg_tools.retrieval.stages.rerank import candidate_document
from kg_tools.retrieval.stages.search import Search
from tests.support.synthetic_catalog import plain_tool
from tests.support.tiny_models import tiny_cross_encoder

pytestmark = pytest.mark.integration

QUERY = "Can you send my current location to my friend at john.doe@example.com?"


@pytest.fixture(scope="module")
def cross_encoder_dir(tmp_path_factory):
    return tiny_cross_encoder(tmp_path_factory.mktemp("tiny-ce"))


def search_candidates(graph, embedder, settings, query, pool):
    ctx = RetrievalContext(request=RetrievalRequest(query=query), queries=[query])
    Search(PipelineEnv(graph, embedder, settings), pool).run(ctx)
    return ctx.candidates


def stage(response, name):
    return next(s for s in response.stages if s.name == name)


def test_cross_encoder_reranks_the_top_m_by_its_scores(tlos, embedder, settings, cross_encoder_dir):
    from sentence_transformers import CrossEncoder  # noqa: PLC0415 - the sentence-transformers extra

    ce_settings = settings.model_copy(update={"cross_encoder_model": cross_encoder_dir, "rerank_top_m": 50})
    response = Pipeline(tlos, embedder, ce_settings).retrieve(
        RetrievalRequest(query=QUERY, rerank="cross-encoder", K=60)
    )
    # expected: the tiny model's own scores over the same 50 search candidates, computed independently
    candidates = search_candidates(tlos, embedder, settings, QUERY, 50)
    scores = CrossEncoder(cross_encoder_dir, device="cpu").predict([(QUERY, candidate_document(c)) for c in candidates])
    ranked = [c.name for _, c in sorted(zip(scores, candidates), key=lambda p: -p[0])]
    assert response.names[0] == ranked[0]
    top3 = ranked[:3]
    assert [n for n in response.names if n in set(top3)] == top3
    seed = response.tools[0]
    assert seed.score == pytest.approx(float(max(scores)), abs=1e-5)
    info = stage(response, "rerank-cross-encoder")
    assert not info.fallback and "top 50 rescored" in info.detail


def test_cross_encoder_not_configured_keeps_search_order(tlos, embedder, settings):
    plain = settings.model_copy(update={"cross_encoder_model": None})
    baseline = Pipeline(tlos, embedder, plain).retrieve(RetrievalRequest(query=QUERY, rerank="none"))  # search order
    response = Pipeline(tlos, embedder, plain).retrieve(RetrievalRequest(query=QUERY, rerank="cross-encoder"))
    assert response.names == baseline.names
    info = stage(response, "rerank-cross-encoder")
    assert info.fallback and "KG_TOOLS_CROSS_ENCODER" in info.detail


def test_cross_encoder_bad_path_is_a_clear_error(tlos, embedder, settings, tmp_path):
    bad = settings.model_copy(update={"cross_encoder_model": str(tmp_path / "missing-model")})
    with pytest.raises(ConfigurationError, match="cannot load the cross-encoder"):
        Pipeline(tlos, embedder, bad).retrieve(RetrievalRequest(query=QUERY, rerank="cross-encoder"))


def test_dedupe_removes_duplicates_and_keeps_distinct_tools(empty_graph, embedder, settings):
    tools = [
        plain_tool("get_weather", "Get the current weather forecast for a city.", params=("city",)),
        plain_tool(
            "weather_now", "Get the current weather forecast for a city!", params=("city",)
        ),  # same text and parameters
        plain_tool("get_weather_v2", "Get the current weather forecast for a city.", params=("city", "units")),
        plain_tool("book_taxi", "Book a taxi to an address.", params=("address",)),
    ]
    load_catalog(empty_graph, embedder, tools, "dedupe-test", mode=LoadMode.REPLACE, log=lambda *_: None)
    request = RetrievalRequest(query="what is the weather in Paris", k=4, depth=0)
    baseline = Pipeline(empty_graph, embedder, settings).retrieve(request)
    strict = settings.model_copy(update={"dedupe_threshold": 1.01})  # only the text/parameter signature
    response = Pipeline(empty_graph, embedder, strict).retrieve(request.model_copy(update={"stages": ["dedupe"]}))
    kept = [n for n in response.names if n in {"get_weather", "weather_now"}]  # the better-ranked twin stays
    assert len(kept) == 1
    kept_first, dropped = kept[0], ({"get_weather", "weather_now"} - set(kept)).pop()
    assert set(response.names) == set(baseline.names) - {dropped}
    assert f"{dropped} (duplicate of {kept_first})" in stage(response, "dedupe").detail
    # with the cosine rule, near-identical embeddings go too (get_weather_v2 differs only in a parameter)
    loose = settings.model_copy(update={"dedupe_threshold": 0.9})
    response = Pipeline(empty_graph, embedder, loose).retrieve(request.model_copy(update={"stages": ["dedupe"]}))
    assert "book_taxi" in response.names and len(response.names) < len(baseline.names) - 1
