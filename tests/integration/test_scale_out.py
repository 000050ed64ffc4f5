"""Beyond one machine: the API is stateless (several processes, each with its own driver pool, serve
one Neo4j), and NEO4J_URI takes routing URIs (neo4j://, neo4j+s://) with reads sent as READ work
(which a cluster routes to its readers)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from neo4j import READ_ACCESS, WRITE_ACCESS, Neo4jDriver

from kg_tools.api.app import create_app
from kg_tools.graph import Graph
from kg_tools.retrieval import Pipeline, RetrievalRequest
from tests.support import synthetic_catalog as syn
from tests.support.synthetic_catalog import A, B

pytestmark = pytest.mark.integration


def routing(settings):
    """The test server's Bolt port under the routing scheme neo4j:// (a single server is its own router)."""
    port = settings.neo4j_uri.rsplit(":", 1)[1]
    return settings.model_copy(update={"neo4j_uri": f"neo4j://127.0.0.1:{port}"})


def test_two_api_instances_with_their_own_pools_share_one_graph(settings, graph, embedder):
    syn.load(graph, embedder)
    # No graph passed in: each app opens its own gateway (driver + pool), as separate processes do.
    with (
        TestClient(create_app(settings, embedder=embedder)) as first,
        TestClient(create_app(routing(settings), embedder=embedder)) as second,
    ):
        assert first.app.state.graph is not second.app.state.graph
        spec = first.get(f"/v1/tools/{B}").json()["spec"]
        spec["description"] = "Rewritten through the first instance."
        assert first.put(f"/v1/tools/{B}", json=spec).status_code == 200
        assert second.get(f"/v1/tools/{B}").json()["spec"]["description"] == spec["description"]
        answers = [
            c.post("/v1/retrieve", json={"query": "book a flight", "catalog": "syn-seeds", "k": 1}).json()
            for c in (first, second)
        ]
        assert [t["name"] for t in answers[0]["tools"]] == [t["name"] for t in answers[1]["tools"]]
        assert answers[0]["tools"][0]["name"] == A
        assert second.delete(f"/v1/tools/{B}").status_code == 204
        assert first.get(f"/v1/tools/{B}").status_code == 404


def test_routing_uri_reads_as_read_work_and_writes_as_write_work(settings, graph, embedder, monkeypatch):
    syn.load(graph, embedder)
    routed = Graph.connect(routing(settings))
    try:
        assert isinstance(routed._driver, Neo4jDriver)  # the routing driver: fetches a routing table
        modes = []
        real_session = Graph.session
        monkeypatch.setattr(Graph, "session", lambda self, mode: modes.append(mode) or real_session(self, mode))
        result = Pipeline(routed, embedder, settings).retrieve(
            RetrievalRequest(query="book a flight", k=1, catalog="syn-seeds")
        )
        assert result.tools[0].name == A
        assert modes and set(modes) == {READ_ACCESS}  # the whole retrieval is read work: readers serve it
        modes.clear()
        routed.write("MATCH (t:Tool {name: $name}) SET t.touched = true", name=A)
        assert modes == [WRITE_ACCESS]
    finally:
        routed.close()


@pytest.mark.parametrize("uri", ["neo4j+s://example.databases.neo4j.io", "neo4j+ssc://10.0.0.5:7687"])
def test_aura_and_cluster_uris_make_a_routing_driver(settings, uri):
    g = Graph(settings.model_copy(update={"neo4j_uri": uri}))  # no connection is opened here
    try:
        assert isinstance(g._driver, Neo4jDriver)
    finally:
        g.close()
