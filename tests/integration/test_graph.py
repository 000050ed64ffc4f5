"""The graph gateway: the configured database on every session, one error type for "unreachable",
a clear error for a database that does not exist. (Retries across a Neo4j restart: test_restart.py.)"""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from neo4j._sync.work.transaction import TransactionBase
from neo4j.exceptions import IncompleteCommit

from kg_tools.api.app import create_app
from kg_tools.errors import ConfigurationError, DatabaseUnavailableError, OutcomeUnknownError
from kg_tools.graph import Graph
from kg_tools.ingest import load_catalog
from kg_tools.merge import build_plan, list_runs
from kg_tools.processes import free_port
from kg_tools.readiness import readiness
from kg_tools.retrieval import Pipeline, RetrievalRequest
from kg_tools.stats import graph_stats
from kg_tools.tool_store import ToolStore
from tests.support import synthetic_catalog as syn

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
        for work in (
            lambda: graph.read("RETURN 1"),
            lambda: graph.write("CREATE (:Nothing)"),
            lambda: graph.transaction(lambda tx: tx.run("RETURN 1").consume()),
        ):
            t0 = time.perf_counter()
            with pytest.raises(DatabaseUnavailableError, match="not reachable"):
                work()
            assert time.perf_counter() - t0 < 10.0  # no 30 s retry loop (a loaded machine takes seconds)
    finally:
        graph.close()


def wait_for_login(settings, seconds: float = 15.0) -> None:
    """Until a correctly configured gateway can log in (Neo4j's lock-out after failed logins ends)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with Graph.connect(settings):
                return
        except ConfigurationError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_a_wrong_password_is_503_misconfigured_and_logs_in_once_per_backoff(settings, embedder, monkeypatch):
    """Issue #23 item 7: polled at 10 Hz with a wrong password, the API answered 503 for three requests,
    then 500 (Neo4j's AuthenticationRateLimit), and Neo4j locked the user out for every client, the
    correctly configured ones too. Now: 503 `misconfigured` every time, ONE login attempt per backoff
    window, and a correctly configured client logs in right after."""

    wrong = settings.model_copy(update={"neo4j_password": "wrong-password"})
    try:
        with TestClient(create_app(wrong, embedder=embedder)) as client:
            graph = client.app.state.graph
            recorder = SessionRecorder(graph)
            monkeypatch.setattr(graph._driver, "session", recorder)
            answers = []
            for _ in range(20):  # 10 Hz for 2 s
                answers.append(client.get("/v1/tools"))
                time.sleep(0.1)
            logins = len(recorder.calls)
            print(
                f"\nwrong password, 20 requests at 10 Hz: statuses {sorted({a.status_code for a in answers})}, "
                f"login attempts {logins}"
            )
            assert {a.status_code for a in answers} == {503}, [a.text for a in answers if a.status_code != 503][:1]
            assert {a.json()["error"] for a in answers} == {"misconfigured"}
            assert "rejected user 'neo4j'" in answers[0].json()["detail"]
            assert "next attempt in" in answers[-1].json()["detail"]
            assert logins <= 1  # the app's start-up warm-up may have been the one
            with Graph.connect(settings) as fresh:  # not locked out: a correct client logs in at once
                assert fresh.read("RETURN 1 AS ok") == [{"ok": 1}]
            # The window is over: exactly one call logs in again, and fails again.
            graph._auth_failure = (time.monotonic() - 1, graph._auth_failure[1])
            assert client.get("/v1/tools").status_code == 503
            assert len(recorder.calls) == logins + 1
            assert client.get("/v1/tools").status_code == 503 and len(recorder.calls) == logins + 1
        # (checked before forcing a second window: Neo4j itself locks a user for 5 s after 3 failed logins)
    finally:
        wait_for_login(settings)


def test_a_connection_lost_at_commit_says_the_outcome_is_unknown(settings, monkeypatch):
    """Issue #23 item 12 (simulated here; test_restart.py kills Neo4j at commit): the driver's
    IncompleteCommit became 'Neo4j is not reachable' although the write may have committed."""

    def commit_lost(self):
        raise IncompleteCommit("Failed to read from defunct connection (simulated at COMMIT)")

    with Graph.connect(settings) as graph:
        monkeypatch.setattr(TransactionBase, "_commit", commit_lost)
        t0 = time.perf_counter()
        with pytest.raises(OutcomeUnknownError, match=r"the outcome is unknown; run it again \(loads are idempotent\)"):
            graph.write("RETURN 1 AS ok")
        # not retried (the driver's loop is 30 s): running it again is the caller's decision
        assert time.perf_counter() - t0 < 10.0
