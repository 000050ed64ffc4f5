"""The server-score stage over real (:Server) nodes in Neo4j: the tool of the server the query is about comes
first, by default (issue 29) as when named; a graph without servers is answered exactly as before; the
servers are read once per graph version, and a write to a (:Server) is seen by the next request."""

from __future__ import annotations

import pytest

from kg_tools.gateway.sync import write_server
from kg_tools.ingest import load_catalog
from kg_tools.retrieval import Pipeline, RetrievalRequest

SERVERS = {
    "alpha": {"title": "Spotify music", "instructions": "Songs, albums, artists and playlists on Spotify."},
    "beta": {"title": "Discord chat", "instructions": "Messages, channels and members of Discord servers."},
}
QUERIES = [("search for a song by keyword", "alpha"), ("search chat channels by keyword", "beta")]


def _entries(server: str) -> list[dict]:
    """The same tool, by the same name, in each server's catalog: only the servers tell them apart."""
    description = "Search for items by keyword and return the matches."
    return [{"name": "search_items", "description": description, "upstream": {"server": server, "tool": "x"}}]


def _load(graph, embedder, servers: bool = True) -> None:
    for name, info in SERVERS.items():
        load_catalog(graph, embedder, _entries(name), name, log=lambda *_: None)
        if servers:
            assert write_server(graph, embedder, name, info, _entries(name))


def _first(response) -> str | None:
    return response.tools[0].catalog


def _blended(response) -> list[str]:
    return [s.detail for s in response.stages if s.name == "server-score"]


@pytest.mark.integration
def test_the_default_request_blends_the_server_score_once_per_graph_version(empty_graph, embedder, settings):
    _load(empty_graph, embedder)
    pipeline = Pipeline(empty_graph, embedder, settings)
    for stages in ([], ["server-score"]):  # by default, and named
        for query, first in QUERIES:
            response = pipeline.retrieve(RetrievalRequest(query=query, stages=stages, K=2))
            assert _first(response) == first, (query, stages, [t.catalog for t in response.tools])
            assert _blended(response) == ["2 of 2 candidates blended with their server's similarity (weight 0.4)"]
            assert "server-score" in response.timing_ms
    index = pipeline.env.server_index
    assert index.reads == 1  # four requests, one graph version: one read of the servers
    # the default path stays one round trip per request (the seed cache warm: the light search alone)
    pipeline.warm_seed_cache()
    reads_before = index.reads
    for _ in range(3):
        assert _first(pipeline.retrieve(RetrievalRequest(query=QUERIES[0][0], K=2))) == "alpha"
    assert index.reads == reads_before
    # a write to a (:Server) is seen by the next request: alpha now says it is about chat
    chat = {"title": "Discord chat", "instructions": "Messages, channels and members of Discord servers."}
    assert write_server(empty_graph, embedder, "alpha", chat, _entries("alpha"))
    assert write_server(empty_graph, embedder, "beta", SERVERS["alpha"], _entries("beta"))
    assert _first(pipeline.retrieve(RetrievalRequest(query=QUERIES[0][0], K=2))) == "beta"
    # server_score false: the search's order (the two tools tie but for the servers)
    off = pipeline.retrieve(RetrievalRequest(query=QUERIES[0][0], K=2, server_score=False))
    assert _blended(off) == [] and "server-score" not in off.timing_ms


@pytest.mark.integration
def test_a_graph_without_servers_is_answered_as_before(empty_graph, embedder, settings):
    _load(empty_graph, embedder, servers=False)
    pipeline = Pipeline(empty_graph, embedder, settings)
    for query, _ in QUERIES:
        default = pipeline.retrieve(RetrievalRequest(query=query, K=2))
        before = pipeline.retrieve(RetrievalRequest(query=query, K=2, server_score=False))
        assert default.tools == before.tools and default.stages == before.stages
        assert set(default.timing_ms) == set(before.timing_ms)
    assert pipeline.env.server_index.reads == 1
    # named, the stage says why it changed nothing
    staged = pipeline.retrieve(RetrievalRequest(query=QUERIES[0][0], stages=["server-score"], K=2))
    assert [t.name for t in staged.tools] == [t.name for t in default.tools]
    assert _blended(staged) == ["no candidate has a server with an embedding: scores unchanged"]
    # servers written later are blended from the next request on
    for name, info in SERVERS.items():
        assert write_server(empty_graph, embedder, name, info, _entries(name))
    assert _blended(pipeline.retrieve(RetrievalRequest(query=QUERIES[1][0], K=2)))


@pytest.mark.integration
def test_the_similarity_is_neo4js_cosine(empty_graph, embedder, settings):
    """What the index computes in numpy is what the Cypher it replaced computed (vector.similarity.cosine)."""
    _load(empty_graph, embedder)
    pipeline = Pipeline(empty_graph, embedder, settings)
    embedding = embedder.embed_query(QUERIES[0][0])
    servers = pipeline.env.servers(None)
    ours = servers.scores([("search_items", "alpha"), ("search_items", "beta")], embedding)
    rows = empty_graph.read(
        "MATCH (s:Server)-[:PROVIDES]->(t:Tool) RETURN t.catalog AS catalog, "
        "vector.similarity.cosine(s.embedding, $embedding) AS score",
        embedding=embedding,
    )
    assert {(r["catalog"]): r["score"] for r in rows} == pytest.approx({c: s for (_, c), s in ours.items()}, abs=1e-6)


@pytest.mark.integration
def test_each_step_of_a_per_step_request_is_blended_by_its_own_text(empty_graph, embedder, settings):
    _load(empty_graph, embedder)
    pipeline = Pipeline(empty_graph, embedder, settings)
    request = RetrievalRequest(query="search for a song by keyword, then search chat channels by keyword", K=4)
    response = pipeline.retrieve(request.model_copy(update={"stages": ["per-step"]}))
    blended = [d for d in _blended(response) if "blended with their server's similarity to it" in d]
    assert len(blended) == 3  # the request as a whole and its two steps
    off = pipeline.retrieve(request.model_copy(update={"stages": ["per-step"], "server_score": False}))
    assert _blended(off) == []
