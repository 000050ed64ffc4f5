"""Graph RAG-Tool Fusion pipeline against a real Neo4j, on a hand-made catalog with known answers."""

from __future__ import annotations

import pytest

from kg_tools.retrieval import Pipeline, RetrievalRequest
from kg_tools.retrieval.queries import LEXICAL_BOOST
from tests.support import synthetic_catalog as syn
from tests.support.synthetic_catalog import UNRELATED, A, B, C, D, E, F, G, H

pytestmark = pytest.mark.integration


@pytest.fixture
def pipeline(graph, embedder, settings):
    syn.load(graph, embedder)
    return Pipeline(graph, embedder, settings)


def names(pipeline, query, **fields):
    """The seeds' and their dependencies' names: what fills K afterwards (the next seeds, stage
    `fill`, tests/integration/test_k_is_a_budget.py) is left out, so these tests see the expansion alone."""
    return unfilled(pipeline.retrieve(RetrievalRequest(query=query, **fields)))


def unfilled(response) -> list[str]:
    fill = [s.detail for s in response.stages if s.name == "fill"]
    return response.names[: int(fill[0].split(" gave ")[1].split(" ")[0])] if fill else response.names


def seeds_query(**fields):
    """A and F are the only tools of catalog syn-seeds; the query is A's own document, so A ranks first."""
    return {"query": syn.document(A), "catalog": "syn-seeds", "k": 2, **fields}


# -- ordering and truncation -------------------------------------------------------------------


def test_seed_then_its_dependencies_then_next_seed_unique(pipeline):
    response = pipeline.retrieve(RetrievalRequest(**seeds_query()))
    # A's dependencies depth-first in listing order (B's subtree before C), the cycles B<->D and
    # A->C->A end, E (already reached through C) is not repeated under F.
    assert response.names == [A, H, B, D, C, E, F, G]
    roles = [(t.name, t.role) for t in response.tools]
    assert roles[0] == (A, "seed") and roles[6] == (F, "seed")
    assert all(role == "dependency" for name, role in roles if name not in (A, F))
    seed_scores = [t.score for t in response.tools if t.role == "seed"]
    assert seed_scores == sorted(seed_scores, reverse=True)  # the offline rescoring's scores
    plain = pipeline.retrieve(RetrievalRequest(**seeds_query(rerank="none", mode="vector")))
    assert plain.names == response.names
    # Neo4j's score (1 + cosine) / 2 of the query (with the model's query prefix) and A's own document
    embedder = pipeline.env.embedder
    cosine = float(embedder.embed([seeds_query()["query"]], query=True)[0] @ embedder.embed([syn.document(A)])[0])
    assert [t.score for t in plain.tools if t.role == "seed"][0] == pytest.approx((1 + cosine) / 2, abs=1e-3)
    assert all(t.score is None for t in response.tools if t.role == "dependency")


def test_via_names_the_edge_that_reached_each_dependency(pipeline):
    tools = {t.name: t for t in pipeline.retrieve(RetrievalRequest(**seeds_query())).tools}
    assert [(v.from_, v.type, v.parameter_name) for v in tools[C].via] == [
        (A, "PARAMETER_DIRECTLY_DEPENDS_ON", "travel_date")
    ]
    assert [(v.from_, v.type) for v in tools[D].via] == [(B, "TOOL_INDIRECTLY_DEPENDS_ON")]
    assert tools[C].via[0].reason == f"needs {C}"
    assert tools[A].via == [] and tools[A].kind == "regular" and tools[B].kind == "core"
    assert tools[A].spec == syn.raw(A)  # original JSON, extra fields ("module") included
    assert tools[A].function["function"]["parameters"]["required"] == ["origin_airport", "travel_date"]


def test_truncated_to_K(pipeline):
    assert names(pipeline, **seeds_query(K=5)) == [A, H, B, D, C]
    assert names(pipeline, **seeds_query(K=1)) == [A]


def test_d_limit_caps_dependencies_per_seed(pipeline):
    # A keeps its first two dependencies; E is then new under F.
    assert names(pipeline, **seeds_query(d_limit=2)) == [A, H, B, F, E, G]


def test_depth_bounds_the_traversal(pipeline):
    assert names(pipeline, **seeds_query(depth=0)) == [A, F]
    assert names(pipeline, **seeds_query(depth=1)) == [A, H, B, C, F, E, G]
    assert names(pipeline, **seeds_query(depth=2)) == [A, H, B, D, C, E, F, G]


def test_edge_types_filter(pipeline):
    assert names(pipeline, **seeds_query(edge_types=["TOOL_DIRECTLY_DEPENDS_ON"])) == [A, B, F, G]
    assert names(pipeline, **seeds_query(edge_types=["PARAMETER_DIRECTLY_DEPENDS_ON"])) == [A, C, F]
    assert names(pipeline, **seeds_query(edge_types=["PARAMETER_DIRECTLY_DEPENDS_ON", "TOOL_DIRECTLY_DEPENDS_ON"])) == [
        A,
        B,
        C,
        E,
        F,
        G,
    ]


def test_prefer_direct_visits_direct_edges_first(pipeline):
    query = {"query": syn.document(F), "catalog": "syn-seeds", "k": 1}
    assert names(pipeline, **query) == [F, E, G]  # listing order: the indirect parameter edge first
    assert names(pipeline, **query, prefer_direct=True) == [F, G, E]


def test_paths_never_pass_back_through_a_visited_tool(pipeline):
    # With direct edges first, A's DFS is B, D, C, E, H. C -> A -> H would reach H "through" C by
    # revisiting the seed; simple paths exclude it, so H comes last, from A itself.
    response = pipeline.retrieve(RetrievalRequest(**seeds_query(k=1, prefer_direct=True)))
    assert unfilled(response) == [A, B, D, C, E, H]
    assert [(v.from_, v.type) for v in next(t for t in response.tools if t.name == H).via] == [
        (A, "TOOL_INDIRECTLY_DEPENDS_ON")
    ]


def test_skip_supplied_parameters_drops_the_parameter_edge(pipeline):
    query = syn.document(A) + " on 2025-03-14"
    assert C in names(pipeline, query, catalog="syn-seeds", k=1)
    assert names(pipeline, query, catalog="syn-seeds", k=1, skip_supplied_parameters=True) == [A, H, B, D]


def test_cycles_terminate_when_the_seed_is_inside_one(pipeline):
    # D -> B -> D and C -> A -> C: no seed repeats itself, every tool appears once.
    response = pipeline.retrieve(RetrievalRequest(query=syn.document(D), k=1, K=50))
    assert response.names[0] == D
    assert unfilled(response) == [D, B]
    response = pipeline.retrieve(RetrievalRequest(query=syn.document(C), k=1, K=50))
    assert unfilled(response) == [C, A, H, B, D, E]
    assert len(set(response.names)) == len(response.names)


# -- search modes ------------------------------------------------------------------------------


def test_vector_mode_ranks_the_tool_whose_document_is_the_query_first(pipeline):
    for tool in (A, G, UNRELATED):
        response = pipeline.retrieve(RetrievalRequest(query=syn.document(tool), mode="vector", k=1, depth=0))
        assert unfilled(response) == [tool]
        assert [s.name for s in response.stages][:2] == ["search", "expand"]
        assert "vector top-1" in response.stages[0].detail


def test_fulltext_mode_finds_a_word_only_one_tool_has(pipeline):
    response = pipeline.retrieve(RetrievalRequest(query="xylophone", mode="fulltext", k=3, depth=0))
    assert unfilled(response) == [UNRELATED]
    assert "fulltext" in response.stages[0].detail
    assert "embed" not in response.timing_ms or response.timing_ms["embed"] == 0.0


def test_hybrid_alpha_one_is_vector_order_and_alpha_zero_follows_fulltext(pipeline):
    query = "renew my authentication session token"
    vector = names(pipeline, query, k=3, depth=0)
    assert names(pipeline, query, mode="hybrid", alpha=1.0, k=3, depth=0) == vector
    fulltext_top = names(pipeline, query, mode="fulltext", k=1, depth=0)
    assert fulltext_top == [D]
    assert names(pipeline, query, mode="hybrid", alpha=0.0, k=1, depth=0) == fulltext_top


def test_hybrid_scores_are_normalised_and_rrf_sums_reciprocal_ranks(pipeline):
    query = syn.document(G)  # first in both legs
    hybrid = pipeline.retrieve(RetrievalRequest(query=query, mode="hybrid", alpha=0.8, k=3, depth=0))
    assert hybrid.names[0] == G and hybrid.tools[0].score == pytest.approx(1.0)
    assert all(0.0 <= t.score <= 1.0 for t in hybrid.tools)
    rrf = pipeline.retrieve(RetrievalRequest(query=query, mode="rrf", k=3, depth=0))
    assert rrf.names[0] == G and rrf.tools[0].score == pytest.approx(2 / 61)
    assert [t.score for t in rrf.tools] == sorted((t.score for t in rrf.tools), reverse=True)


def test_hybrid_boost_is_the_default_and_adds_a_bm25_bonus_to_the_vector_score(pipeline):
    """Issue 19: the default search is the vector score + LEXICAL_BOOST / 2 x the BM25 score min-max
    normalised over the fulltext hits; a hit of the fulltext leg alone gets the vector leg's lowest score."""

    assert RetrievalRequest(query="x").mode == "hybrid-boost"
    query = "renew my authentication session token"
    plain = {"k": 50, "K": 50, "depth": 0, "rerank": "none"}

    def scores(mode):
        return {t.name: t.score for t in pipeline.retrieve(RetrievalRequest(query=query, mode=mode, **plain)).tools}

    vector, text = scores("vector"), scores("fulltext")
    top, bottom = max(text.values()), min(text.values())
    normalised = {name: (s - bottom) / (top - bottom) if top > bottom else 1.0 for name, s in text.items()}
    expected = {
        name: vector.get(name, min(vector.values())) + LEXICAL_BOOST / 2 * normalised.get(name, 0.0)
        for name in {*vector, *text}
    }
    assert any(expected[name] > vector[name] for name in vector)
    response = pipeline.retrieve(RetrievalRequest(query=query, mode="hybrid-boost", **plain))
    assert {t.name: t.score for t in response.tools} == pytest.approx(expected)
    assert [t.score for t in response.tools] == sorted((t.score for t in response.tools), reverse=True)
    assert response.stages[0].detail.startswith("hybrid-boost top-50")
    # the default request searches so and rescores offline
    default = pipeline.retrieve(RetrievalRequest(query=query))
    assert default.stages[0].detail.startswith("hybrid-boost") and "rerank-offline" in [s.name for s in default.stages]


def test_catalog_filter_restricts_seeds_not_dependencies(pipeline, graph):
    query = syn.document(G)  # G (catalog syn-deps) is the best match overall ...
    assert pipeline.retrieve(RetrievalRequest(query=query, k=2)).tools[0].name == G
    response = pipeline.retrieve(RetrievalRequest(query=query, catalog="syn-seeds", k=2))
    catalog_of = {
        r["name"]: r["catalog"]
        for r in graph.read(
            "MATCH (t:Tool) WHERE t.name IN $names RETURN t.name AS name, t.catalog AS catalog", names=response.names
        )
    }
    seeds = [t.name for t in response.tools if t.role == "seed"]
    dependencies = [t.name for t in response.tools if t.role == "dependency"]
    # ... but with the filter only the catalog's two tools are seeds, and G still comes as F's dependency
    assert set(seeds) == {A, F}
    assert all(catalog_of[name] == "syn-seeds" for name in seeds)
    assert G in dependencies and catalog_of[G] == "syn-deps"
    assert [v.from_ for v in next(t for t in response.tools if t.name == G).via] == [F]


# -- any text works in the fulltext leg -------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "xylophone C++ (beta) [draft] {x} ^2 ~1 * ? : \\ / ! - +",
        'xylophone "unterminated',
        "xylophone && || &&||",
        "xylophone)",
        "xylophone ~ ~ ~",
    ],
)
def test_fulltext_and_hybrid_accept_any_text(pipeline, query):
    for mode in ("fulltext", "hybrid", "rrf"):
        response = pipeline.retrieve(RetrievalRequest(query=query, mode=mode, k=1, depth=0))
        assert unfilled(response) == [UNRELATED], (mode, query)
