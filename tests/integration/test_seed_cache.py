"""The seed cache of the default retrieval (kg_tools/retrieval/seed_cache.py): responses equal to an
uncached pipeline's on ToolLinkOS, and every write -- PUT, DELETE, a raw Cypher edit -- is seen by
the very next request."""

from __future__ import annotations

import pytest

from kg_tools.loaders import toollinkos
from kg_tools.retrieval import Pipeline, RetrievalRequest
from kg_tools.tool_store import ToolStore

pytestmark = pytest.mark.integration

VARIANTS = [{}, {"K": 30}, {"supplied_last": False}, {"rerank": "none"}, {"k": 5, "K": 20}, {"d_limit": 2}]


def dump(response) -> dict:
    out = response.model_dump(mode="json", by_alias=True)
    out.pop("timing_ms")
    return out


def spy_queries(pipeline: Pipeline) -> list[str]:
    """The Cypher texts the pipeline's versioned reads send (the cached path's only reads)."""
    sent: list[str] = []
    real = pipeline.env.run_query_versioned

    def run(cypher, params):
        sent.append(cypher)
        return real(cypher, params)

    pipeline.env.run_query_versioned = run
    return sent


@pytest.fixture
def pipelines(graph, embedder, settings):
    cached = Pipeline(graph, embedder, settings)
    plain = Pipeline(graph, embedder, settings.model_copy(update={"retrieval_cache_size": 0}))
    assert cached.env.seed_cache is not None and plain.env.seed_cache is None
    return cached, plain


def toollinkos_queries(datasets, n: int) -> list[str]:
    return list(dict.fromkeys(i["user_query"] for i in toollinkos.load(datasets / "toollinkos").instances))[:n]


def test_cached_responses_equal_uncached_on_toollinkos(tlos, pipelines, datasets):
    cached, plain = pipelines
    sent = spy_queries(cached)
    texts = toollinkos_queries(datasets, 150)
    for _rnd in range(2):  # the second round finds the cache warm: light searches
        for text in texts:
            for variant in VARIANTS:
                request = RetrievalRequest(query=text, **variant)
                assert dump(cached.retrieve(request)) == dump(plain.retrieve(request)), (text, variant)
    cache = cached.env.seed_cache
    assert cache.prefer_light() and cache.hits > 10 * cache.misses
    light = [c for c in sent if "closure_via" not in c]
    assert len(light) > len(texts)  # most requests of round 2 sent only the search
    assert any("closure_via" in c for c in sent)  # the cold ones expanded (full query or the unknown seeds)


def test_writes_are_seen_by_the_next_request(toollinkos_graph, pipelines, embedder, datasets):
    graph = toollinkos_graph
    cached, plain = pipelines
    texts = toollinkos_queries(datasets, 120)
    for text in texts:  # warm: the cache now answers these seeds
        cached.retrieve(RetrievalRequest(query=text))
    assert cached.env.seed_cache.prefer_light()
    query = next(
        t
        for t in texts
        if len(cached.retrieve(RetrievalRequest(query=t)).tools) >= 4
        and cached.retrieve(RetrievalRequest(query=t)).tools[1].role == "dependency"
    )
    before = cached.retrieve(RetrievalRequest(query=query))
    dependency = before.tools[1].name

    # PUT changes the dependency's spec: the next request shows the new spec.
    store = ToolStore(graph)
    spec = store.get_tool(dependency)["spec"]
    spec["x_test_marker"] = "after the PUT"
    store.put_tool(dependency, spec, embedder)
    after = cached.retrieve(RetrievalRequest(query=query))
    hit = next(t for t in after.tools if t.name == dependency)
    assert hit.spec["x_test_marker"] == "after the PUT"
    assert dump(after) == dump(plain.retrieve(RetrievalRequest(query=query)))

    # An edit outside kg-tools (raw Cypher, as in Neo4j Browser) is seen too: the graph version changed.
    graph.write(
        "MATCH (t:Tool {name: $name}) SET t.func_type = CASE t.func_type WHEN 'core' THEN 'regular' ELSE 'core' END",
        name=dependency,
    )
    edited = cached.retrieve(RetrievalRequest(query=query))
    assert next(t for t in edited.tools if t.name == dependency).kind != hit.kind
    assert dump(edited) == dump(plain.retrieve(RetrievalRequest(query=query)))

    # DELETE: the tool is gone from the next response.
    store.delete_tool(dependency)
    gone = cached.retrieve(RetrievalRequest(query=query))
    assert dependency not in gone.names
    assert dump(gone) == dump(plain.retrieve(RetrievalRequest(query=query)))


def test_warm_up_fills_the_cache_for_every_seed_and_changes_no_response(
    tlos, pipelines, datasets, settings, graph, embedder
):
    cached, plain = pipelines
    canonical = graph.read("MATCH (t:Tool) WHERE NOT (t)-[:MERGED_INTO]->(:Tool) RETURN count(t) AS n")[0]["n"]
    assert cached.warm_seed_cache(chunk=100) == canonical == len(cached.env.seed_cache)
    sent = spy_queries(cached)
    for text in toollinkos_queries(datasets, 60):
        request = RetrievalRequest(query=text)
        assert dump(cached.retrieve(request)) == dump(plain.retrieve(request)), text
    # after the first few requests (the hit-rate history starts empty) only the search is sent: no
    # searched seed was missing from the warmed cache
    assert len(sent) == 60 and not any("closure_via" in c for c in sent[10:])
    # a catalog larger than the cache is left to the requests
    small = Pipeline(graph, embedder, settings.model_copy(update={"retrieval_cache_size": canonical - 1}))
    assert small.warm_seed_cache() == 0 and len(small.env.seed_cache) == 0
