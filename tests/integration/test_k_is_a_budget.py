"""Issue 19 item 2: K is a budget. With no dependency edges the default request returns K tools (its
k = 3 seeds, then the next seeds in order), and `stages` says so; where seeds and dependencies
already fill K nothing changes (real Neo4j)."""

import pytest

from kg_tools.ingest import load_catalog
from kg_tools.retrieval.pipeline import Pipeline
from kg_tools.retrieval.request import RetrievalRequest
from tests.support import synthetic_catalog as syn

FLAT = [
    {"name": f"{server}__{verb}_{thing}", "description": f"{verb.capitalize()} a {thing} on {server}."}
    for server in ("github", "gitlab", "jira")
    for verb in ("create", "list", "delete", "update")
    for thing in ("issue", "comment")
]  # 24 tools, no edges


@pytest.mark.integration
def test_no_edges_the_next_seeds_fill_K(empty_graph, embedder, settings):
    load_catalog(empty_graph, embedder, FLAT, "flat", log=lambda *_: None)
    pipeline = Pipeline(empty_graph, embedder, settings)
    response = pipeline.retrieve(RetrievalRequest(query="open a new issue on github"))
    assert len(response.tools) == 10 and all(t.role == "seed" for t in response.tools)
    fill = [s for s in response.stages if s.name == "fill"]
    assert len(fill) == 1 and "gave 3 of K=10" in fill[0].detail and "next 7 seed(s)" in fill[0].detail
    # the order: the k seeds first, then the next candidates in search order (as with k = K)
    first3 = pipeline.retrieve(RetrievalRequest(query="open a new issue on github", K=3)).names
    assert response.names[:3] == first3
    plain = pipeline.retrieve(
        RetrievalRequest(query="open a new issue on github", k=20, K=20, depth=0, rerank="none")
    ).names
    assert set(response.names[3:]) <= set(plain)
    for K in (1, 24, 50):
        assert len(pipeline.retrieve(RetrievalRequest(query="list comments", K=K, catalog="flat")).names) == min(K, 24)
    # the staged path (a post-search stage) fills K the same way
    staged = pipeline.retrieve(RetrievalRequest(query="open a new issue on github", stages=["server-score"]))
    assert len(staged.tools) == 10 and any(s.name == "fill" for s in staged.stages)


@pytest.mark.integration
def test_K_filled_by_dependencies_is_unchanged(empty_graph, embedder, settings):
    syn.load(empty_graph, embedder)
    pipeline = Pipeline(empty_graph, embedder, settings)
    response = pipeline.retrieve(RetrievalRequest(query=syn.document(syn.A), catalog="syn-seeds", k=1, K=5))
    assert response.names == [syn.A, syn.H, syn.B, syn.D, syn.C]  # the seed's closure fills K: no fill
    assert not any(s.name == "fill" for s in response.stages)
