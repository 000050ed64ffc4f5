"""The light default search merged in Python (kg_tools/retrieval/hit_index.py) gives the seeds the one Cypher
query gives (search_boost + seeds_canonical): the same names, scores and order, with merged tools (one of them
merged into two) and tools of a staged catalog version among the hits; responses equal to an uncached
pipeline's, and a graph larger than the index's limit falls back to the Cypher query."""

from __future__ import annotations

import pytest

from kg_tools.retrieval import Pipeline, RetrievalRequest, queries
from kg_tools.retrieval.hit_index import HitIndex, boost_seeds
from tests.integration.test_seed_cache import dump, spy_queries, toollinkos_queries

pytestmark = pytest.mark.integration

OWN = "MATCH (t:Tool) RETURN elementId(t) AS id, t.name AS name, t.catalog AS catalog"


def merge_and_stage(graph) -> None:
    """Every 9th tool by name merged into the next one, one into two tools, every 13th marked as staged."""
    names = [r["name"] for r in graph.read("MATCH (t:Tool) RETURN t.name AS name ORDER BY name")]
    pairs = [[names[i], names[i + 1]] for i in range(0, len(names) - 1, 9)] + [[names[4], names[6]]]
    pairs.append([names[4], names[7]])
    graph.write(
        "UNWIND $pairs AS p MATCH (m:Tool {name: p[0]}), (c:Tool {name: p[1]}) CREATE (m)-[:MERGED_INTO]->(c)",
        pairs=pairs,
    )
    graph.write(
        "UNWIND $names AS n MATCH (t:Tool {name: n}), (c:Catalog {name: t.catalog}) SET t.version = c.current + 1",
        names=names[5::13],
    )


def test_the_merged_legs_give_the_cypher_seeds_and_the_same_responses(toollinkos_graph, embedder, settings, datasets):
    graph = toollinkos_graph
    merge_and_stage(graph)
    index = HitIndex(limit=10_000)
    own = {r["id"]: ((r["name"], r["catalog"]),) for r in graph.read(OWN)}
    texts = toollinkos_queries(datasets, 200)
    merged = staged = 0
    for text in texts:
        for k in (15, 30):
            search = queries.search_params("hybrid-boost", k=k, text=text, embedding=embedder.embed_query(text))
            expected = graph.read_plain(*queries.search_seeds("hybrid-boost", search))[0]["seeds"]
            legs, version = graph.read_plain_versioned(*queries.search_legs(search))
            seeds_of = index.seeds_of(version, lambda limit: graph.read_plain_versioned(*queries.hit_seeds(limit)))
            assert seeds_of is not None
            assert boost_seeds(legs[0], seeds_of, search["boost"], k) == expected, (text, k)
            hits = set(legs[0]["vector_ids"]) | set(legs[0]["text_ids"])
            merged += any(seeds_of[h] and seeds_of[h] != own[h] for h in hits)
            staged += any(not seeds_of[h] for h in hits)
    assert index.reads == 1 and merged > 50 and staged > 50

    cached = Pipeline(graph, embedder, settings)
    plain = Pipeline(graph, embedder, settings.model_copy(update={"retrieval_cache_size": 0}))
    assert cached.warm_seed_cache() > 0
    sent = spy_queries(cached)
    for text in texts[:80]:
        for variant in ({}, {"K": 30}, {"k": 5}):
            request = RetrievalRequest(query=text, **variant)
            assert dump(cached.retrieve(request)) == dump(plain.retrieve(request)), (text, variant)
    assert cached.env.seed_cache.prefer_light() and cached.env.hit_index.reads == 1
    assert sum("vector_ids" in cypher for cypher in sent) > 150  # the legs merged here: most requests


def test_a_graph_larger_than_the_limit_uses_the_cypher_seeds(tlos, graph, embedder, settings, datasets):
    cached = Pipeline(graph, embedder, settings)
    cached.env.hit_index = HitIndex(limit=10)
    plain = Pipeline(graph, embedder, settings.model_copy(update={"retrieval_cache_size": 0}))
    cached.warm_seed_cache()
    sent = spy_queries(cached)
    for text in toollinkos_queries(datasets, 80):
        request = RetrievalRequest(query=text)
        assert dump(cached.retrieve(request)) == dump(plain.retrieve(request)), text
    assert cached.env.hit_index.too_large() and cached.env.hit_index.reads == 1
    assert not any("vector_ids" in cypher for cypher in sent)
