"""Crash-safe `deps infer --apply` (issue 28, item 6), on a real local Neo4j this module starts for itself:
Neo4j is killed (-9) at each transaction of an apply -- after the run node, after an edge batch, just
before the last COMMIT (closures refreshed, status flipped) -- and during a recovery; restarted on the
same data directory; then the next command (CLI `deps infer --apply`, `deps list` + `deps undo`, the REST
API, the gateway's sync inference) leaves every stored closure equal to a fresh `closure.compute`, no
pending run, and the same proposals applied again. A live apply is waited for, never rolled back.

Before: a kill after an edge batch left committed edges with stale closures (a re-run said "nothing to
apply"), or a run node with 0 edges that blocked every re-run ("run … is already applied")."""

from __future__ import annotations

import json
import threading
import time

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from kg_tools import closure
from kg_tools.api.app import create_app
from kg_tools.cli import cli as group
from kg_tools.commands.context import AppContext
from kg_tools.deps import infer_graph
from kg_tools.deps.store import apply_run, list_runs, recover, run_id_for
from kg_tools.errors import DatabaseUnavailableError
from kg_tools.gateway.sync import infer_for
from kg_tools.graph import Graph
from kg_tools.ingest import load_catalog
from kg_tools.loaders import openapi
from kg_tools.settings import Settings
from tests.integration.test_catalogs import closures, recomputed
from tests.support import FIXTURES
from tests.support.cli_process import neo4j_env
from tests.support.local_neo4j import kill, own_server, settings_for

pytestmark = pytest.mark.integration

SHOP = FIXTURES / "shop_openapi.yaml"
CHECKOUT = {  # depends on add-to-cart by hand: its closure changes with add-to-cart's inferred edges
    "name": "checkout",
    "description": "Pay for the items in the shopping cart.",
    "func_type": "regular",
    "depends_on": [{"name": "add-to-cart", "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": "a cart"}],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory, neo4j_service):
    """A Neo4j of this module's own (killed and restarted by the tests)."""
    with own_server(tmp_path_factory, neo4j_service, "crash") as server:
        yield server


@pytest.fixture(scope="module")
def server_settings(server) -> Settings:
    return settings_for(server.bolt_uri, "neo4j", server.password, api_allowed_hosts=["testserver"])


@pytest.fixture
def graph(server, server_settings, embedder):
    """The shop catalog (+ checkout) alone in the graph, no inferred edge."""

    if server.pid() is None:
        server.start(log=lambda *_: None)
    with Graph.connect(server_settings) as graph:
        graph.write("MATCH (n) WHERE n:Tool OR n:DependencyRun OR n:Catalog DETACH DELETE n")
        load_catalog(graph, embedder, [*openapi.load(SHOP).tools, CHECKOUT], "shop", log=lambda *_: None)
        yield graph


@pytest.fixture
def cli(server_settings, embedder, monkeypatch):
    """`kg-tools ARGS` in this process on the module's server (the session's embedder): its stdout."""

    monkeypatch.setattr(AppContext, "embedder", property(lambda self: embedder))

    def run(*args: str) -> str:
        result = CliRunner().invoke(group, list(args), env=neo4j_env(server_settings, OPENAI_BASE_URL=""))
        assert result.exit_code == 0, result.output
        return result.stdout

    return run


def proposals(graph, embedder, settings):
    [result] = infer_graph(graph, embedder, settings, catalog="shop", method="offline")
    assert len(result.edges) >= 3, "several batches of one edge each"
    return result


def apply(graph, result, **kwargs) -> dict:
    run_id = run_id_for(result.catalog, result.method, result.edges)
    return apply_run(graph, run_id, result.catalog, result.method, 0.2, result.edges, result.notes, **kwargs)


def crash_apply(server, graph, result, stage: str, nth: int) -> str:
    """Apply in batches of one edge, kill -9 Neo4j at the `nth` call of `stage`, restart it on the same
    data directory. The run id."""
    calls = []

    def between(at: str) -> None:
        calls.append(at)
        if at == stage and calls.count(stage) == nth:
            kill(server)

    with pytest.raises(DatabaseUnavailableError):
        apply(graph, result, batch_size=1, between=between)
    assert calls.count(stage) == nth, calls
    server.start(log=lambda *_: None)
    return run_id_for(result.catalog, result.method, result.edges)


def inferred(graph) -> int:
    return graph.read("MATCH ()-[e]->() WHERE e.inferred = true RETURN count(e) AS n")[0]["n"]


def assert_consistent(graph) -> None:
    """Every stored closure as a fresh computation over the graph; no pending run."""
    assert closures(graph) == recomputed(graph)
    assert [r["id"] for r in list_runs(graph) if r["status"] != "applied"] == []


def assert_applied(graph, result) -> None:
    assert inferred(graph) == len(result.edges)
    assert closures(graph)["checkout"][:1] == ["add-to-cart"] and len(closures(graph)["checkout"]) > 1
    assert_consistent(graph)


def test_killed_after_the_run_node_the_next_cli_apply_applies(server, graph, embedder, server_settings, cli):
    result = proposals(graph, embedder, server_settings)
    run_id = crash_apply(server, graph, result, "run", 1)
    [run] = list_runs(graph)
    assert (run["id"], run["status"], run["edges_in_graph"]) == (run_id, "pending", 0)

    out = json.loads(cli("deps", "infer", "--catalog", "shop", "--method", "offline", "--apply", "--json"))
    assert out["runs"] == [
        {
            "run": run_id,
            "applied": True,
            "edges": len(result.edges),
            "message": f"applied {run_id}: {len(result.edges)} inferred dependency edges",
        }
    ]
    assert_applied(graph, result)
    assert [(r["id"], r["status"]) for r in list_runs(graph)] == [(run_id, "applied")]


def test_killed_after_an_edge_batch_list_shows_it_undo_rolls_it_back_and_it_applies_again(
    server, graph, embedder, server_settings, cli
):
    result = proposals(graph, embedder, server_settings)
    run_id = crash_apply(server, graph, result, "batch", 2)
    assert inferred(graph) == 2 and closures(graph) != recomputed(graph)  # what the crash left: stale closures

    [run] = json.loads(cli("deps", "list", "--json"))["runs"]  # shown, not recovered: listing is a read
    assert (run["id"], run["status"], run["edges_in_graph"]) == (run_id, "pending", 2)
    assert "sources" not in run
    assert "pending: being applied, or left by a crash" in cli("deps", "list")

    assert f"undid {run_id}: 2 inferred edges removed" in cli("deps", "undo", run_id)
    assert inferred(graph) == 0 and list_runs(graph) == []
    assert_consistent(graph)
    assert apply(graph, result)["applied"] is True
    assert_applied(graph, result)


def test_killed_after_the_last_batch_the_next_rest_apply_applies(server, graph, embedder, server_settings):
    result = proposals(graph, embedder, server_settings)
    run_id = crash_apply(server, graph, result, "batch", len(result.edges))
    assert inferred(graph) == len(result.edges) and closures(graph) != recomputed(graph)

    with TestClient(create_app(server_settings, graph=graph, embedder=embedder)) as api:
        [run] = api.get("/v1/deps/runs").json()["runs"]
        assert (run["id"], run["status"]) == (run_id, "pending")
        answer = api.post("/v1/deps/infer", json={"catalog": "shop", "apply": True, "method": "offline"})
        assert answer.status_code == 200, answer.text
        assert [(r["run"], r["applied"], r["edges"]) for r in answer.json()["runs"]] == [
            (run_id, True, len(result.edges))
        ]
        assert [(r["id"], r["status"]) for r in api.get("/v1/deps/runs").json()["runs"]] == [(run_id, "applied")]
    assert_applied(graph, result)


def test_killed_before_the_last_commit_the_gateways_sync_inference_applies(server, graph, embedder, server_settings):
    result = proposals(graph, embedder, server_settings)
    crash_apply(server, graph, result, "closure", 1)
    assert inferred(graph) == len(result.edges) and closures(graph) != recomputed(graph)

    shop = {r["name"] for r in graph.read("MATCH (t:Tool {catalog: 'shop'}) RETURN t.name AS name")}
    assert infer_for(graph, embedder, "shop", shop) == len(result.edges)
    assert_applied(graph, result)


def test_killed_during_recovery_the_next_command_recovers(server, graph, embedder, server_settings, cli, monkeypatch):
    result = proposals(graph, embedder, server_settings)
    run_id = crash_apply(server, graph, result, "batch", 2)
    real_refresh, killed = closure.refresh, []

    def refresh(tx, *args, **kwargs):  # inside the recovery's one transaction, edges deleted: kill -9
        if not killed:
            killed.append(kill(server))
        return real_refresh(tx, *args, **kwargs)

    monkeypatch.setattr(closure, "refresh", refresh)
    with pytest.raises(DatabaseUnavailableError):
        recover(graph)
    monkeypatch.setattr(closure, "refresh", real_refresh)
    assert killed
    server.start(log=lambda *_: None)
    assert [(r["id"], r["status"], r["edges_in_graph"]) for r in list_runs(graph)] == [(run_id, "pending", 2)]

    out = json.loads(cli("deps", "infer", "--catalog", "shop", "--method", "offline", "--apply", "--json"))
    assert [(r["run"], r["applied"], r["edges"]) for r in out["runs"]] == [(run_id, True, len(result.edges))]
    assert_applied(graph, result)


def test_a_live_apply_is_waited_for_not_rolled_back(graph, embedder, server_settings):
    """A command that recovers while another one applies waits for that apply (the run node's lock,
    held by the apply's last transaction), then finds it applied: it never rolls back a live run."""
    result = proposals(graph, embedder, server_settings)
    in_flight, go, outcome = threading.Event(), threading.Event(), {}

    def between(stage: str) -> None:
        if stage == "batch" and not in_flight.is_set():
            in_flight.set()
            go.wait(60)

    def run(name: str, work) -> threading.Thread:
        def target():
            try:
                outcome[name] = work()
            except Exception as exc:  # noqa: BLE001 - asserted below
                outcome[name] = exc

        thread = threading.Thread(target=target)
        thread.start()
        return thread

    applying = run("apply", lambda: apply(graph, result, batch_size=1, between=between))
    assert in_flight.wait(60)
    assert [r["status"] for r in list_runs(graph)] == ["pending"]  # a read does not wait
    recovering = run("recover", lambda: recover(graph))
    deadline = time.monotonic() + 60
    while not any(
        str(t["status"]).startswith("Blocked") for t in graph.read_plain("SHOW TRANSACTIONS YIELD status RETURN status")
    ):
        assert time.monotonic() < deadline, "the recovery did not wait for the live apply"
        time.sleep(0.05)
    go.set()
    applying.join(60)
    recovering.join(60)
    assert outcome["recover"] == {}
    assert outcome["apply"]["applied"] is True and outcome["apply"]["edges"] == len(result.edges)
    assert_applied(graph, result)
