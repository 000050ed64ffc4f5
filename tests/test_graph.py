"""The graph gateway: the configured database on every session, one error type for "unreachable",
a clear error for a database that does not exist. (Retries across a Neo4j restart: test_restart.py.)"""
from __future__ import annotations

import time

import pytest

from kg_tools.errors import ConfigurationError, DatabaseUnavailableError
from kg_tools.graph import Graph
from kg_tools.processes import free_port

pytestmark = pytest.mark.integration


class SessionRecorder:
    """Wraps the real driver's `session` and records the keyword arguments of every call."""

    def __init__(self, graph: Graph):
        self.calls: list[dict] = []
        self._session = graph._driver.session

    def __call__(self, **config):
        self.calls.append(config)
        return self._session(**config)


@pytest.fixture
def recorded(settings, monkeypatch):
    """A gateway on the test server whose sessions are recorded; its database is the configured one."""
    with Graph.connect(settings) as graph:
        recorder = SessionRecorder(graph)
        monkeypatch.setattr(graph._driver, "session", recorder)
        yield graph, recorder


def test_every_session_of_the_package_gets_the_configured_database(recorded, embedder, settings):
    """Community edition cannot create a second database, so assert the argument the gateway passes
    on every session, for every kind of caller: loads, schema, stats, retrieval, the tool store, merges."""
    from kg_tools.ingest import load_catalog
    from kg_tools.merge import build_plan, list_runs
    from kg_tools.readiness import readiness
    from kg_tools.retrieval import Pipeline, RetrievalRequest
    from kg_tools.stats import graph_stats
    from kg_tools.tool_store import ToolStore
    from tests import synthetic_catalog as syn

    graph, recorder = recorded
    syn.load(graph, embedder)
    graph_stats(graph)
    readiness(graph)
    Pipeline(graph, embedder, settings).retrieve(RetrievalRequest(query="book a flight", mode="hybrid"))
    store = ToolStore(graph)
    store.list_tools()
    store.dependencies(syn.A, 2)
    build_plan(graph, theta=0.9)
    list_runs(graph)
    load_catalog(graph, embedder, [{"name": "db_probe", "description": "probe"}], "probe", log=lambda *_: None)
    store.delete_tool("db_probe")
    assert len(recorder.calls) > 20
    assert {c.get("database") for c in recorder.calls} == {settings.neo4j_database}


def test_a_database_that_does_not_exist_is_a_clear_error(settings):
    missing = settings.model_copy(update={"neo4j_database": "nosuchdb"})
    with pytest.raises(ConfigurationError, match="database 'nosuchdb' does not exist.*NEO4J_DATABASE"):
        Graph.connect(missing)


def test_unreachable_neo4j_fails_fast_with_one_error_type(settings):
    dead = settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}"})
    graph = Graph(dead)
    try:
        for work in (lambda: graph.read("RETURN 1"), lambda: graph.write("CREATE (:Nothing)"),
                     lambda: graph.transaction(lambda tx: tx.run("RETURN 1").consume())):
            t0 = time.perf_counter()
            with pytest.raises(DatabaseUnavailableError, match="not reachable"):
                work()
            assert time.perf_counter() - t0 < 1.0
    finally:
        graph.close()

