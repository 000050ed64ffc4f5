"""Concurrent writers against the real API (uvicorn on a loopback port, httpx clients in threads) and the
real Neo4j (issue #23, items 2, 3, 4 and 10; docs/concurrency.md):

- PUTs along a dependency chain at the same moment (A depends on B while B's dependencies change) leave
  every stored closure equal to the live traversal, round after round;
- PUT and DELETE of one tool at the same moment answer only 2xx/404/409 (never 500, a PUT never 404),
  and no closure lists a deleted tool;
- two imports that share a new tool name at the same moment: both 200, each catalog with its own tool;
- `PUT ?catalog=B` of a name catalog A holds writes B's own tool (catalogs are namespaces), never A's.

Each test prints its figures (rounds, stale rounds, statuses)."""

from __future__ import annotations

import threading
from collections import Counter
from urllib.parse import quote

import httpx
import pytest

from kg_tools.api.app import create_app
from kg_tools.ingest import load_catalog
from tests.conftest import wipe
from tests.integration.test_closure import all_names, expansion
from tests.support.http_server import serve_in_thread

pytestmark = pytest.mark.integration

ROUNDS = 40
IMPORT_ROUNDS = 20
CLIENT_TIMEOUT = 300  # seconds; generous: the 2-core test machine may be shared by other test runs


def tool(name: str, deps: list[str] = (), description: str = "") -> dict:
    return {
        "name": name,
        "description": description or f"Concurrency test tool {name}.",
        "func_type": "regular",
        "depends_on": [{"name": d, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": "test"} for d in deps],
    }


CHAIN = [
    tool("x_top", ["a_mid"]),
    tool("a_mid", ["b_low"]),
    tool("b_low", ["c_0"]),
    tool("c_0", []),
    tool("c_1", ["c_2"]),
    tool("c_2", []),
    tool("c_3", ["c_1"]),
]


@pytest.fixture
def chain_graph(graph, embedder):
    wipe(graph)
    load_catalog(graph, embedder, [dict(t) for t in CHAIN], "chain", log=lambda *_: None)
    return graph


@pytest.fixture
def api(settings, graph, embedder, chain_graph):
    with serve_in_thread(create_app(settings, graph=graph, embedder=embedder), timeout_keep_alive=30) as url:
        yield url


def at_once(*calls):
    """Run every call in its own thread, released together; their results in order (an exception in
    a thread, e.g. a client timeout on a loaded machine, is raised here)."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)
    errors: list = []

    def run(i, call):
        barrier.wait()
        try:
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - reported by the test thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(CLIENT_TIMEOUT + 60)
    if errors:
        raise errors[0]
    assert all(r is not None for r in results), "a client thread did not finish"
    return results


def stale_closures(graph) -> list[str]:
    """Tools whose stored closure differs from the live traversal, or lists a tool that does not exist."""
    names = all_names(graph)
    if not names:
        return []
    stored, live = expansion(graph, names, closure=True), expansion(graph, names, closure=False)
    dangling = graph.read(
        "MATCH (t:Tool) WHERE any(d IN coalesce(t.closure, []) WHERE NOT EXISTS { MATCH (:Tool {name: d}) }) "
        "RETURN t.name AS name"
    )
    return sorted({n for n in names if stored[n] != live[n]} | {r["name"] for r in dangling})


def put(http: httpx.Client, name: str, body: dict, **params):
    """PUT into the test catalog `chain` (a new tool's dependencies are tools of its own catalog);
    `catalog=None`: no catalog parameter."""
    params.setdefault("catalog", "chain")
    return http.put(f"/v1/tools/{quote(name, safe='')}", json=body, params={k: v for k, v in params.items() if v})


def test_concurrent_puts_along_a_dependency_chain_leave_every_closure_current(api, graph):
    """Item 2: A (a_mid) depends on B (b_low); at the same moment A is rewritten and B's dependencies
    change (and a new tool starts depending on A). Before: A's (and x_top's) stored closure missed B's new dependency."""
    statuses, stale_rounds, stale_tools = Counter(), 0, Counter()
    with httpx.Client(base_url=api, timeout=CLIENT_TIMEOUT) as http:
        for i in range(ROUNDS):
            leaf = f"c_{i % 4}"
            results = at_once(
                lambda: put(http, "a_mid", tool("a_mid", ["b_low"], f"Mid tool, round {i}.")),
                lambda: put(http, "b_low", tool("b_low", [leaf])),
                lambda: put(http, f"new_{i}", tool(f"new_{i}", ["a_mid"])),
            )
            statuses.update(r.status_code for r in results)
            stale = stale_closures(graph)
            stale_rounds += bool(stale)
            stale_tools.update(stale)
    print(
        f"\nchain PUTs: {ROUNDS} rounds, statuses {dict(statuses)}, rounds with a stale closure: {stale_rounds}, "
        f"stale tools {dict(stale_tools)}"
    )
    assert set(statuses) <= {200, 201}, statuses
    assert stale_rounds == 0, dict(stale_tools)


def test_concurrent_put_and_delete_answer_2xx_404_409_and_leave_no_stale_closure(api, graph):
    """Items 2 and 3: PUT and DELETE of one tool (and a PUT of a tool depending on it) at the same
    moment. Before: 500 (Neo4j EntityNotFound), PUTs answering 404 after their write committed, and
    closures listing the deleted tool."""
    statuses, put_statuses, stale_rounds = Counter(), Counter(), 0
    with httpx.Client(base_url=api, timeout=CLIENT_TIMEOUT) as http:
        for i in range(ROUNDS):
            assert put(http, "victim", tool("victim", ["c_1"])).status_code in (200, 201)
            results = at_once(
                lambda: put(http, "victim", tool("victim", [f"c_{i % 4}"], f"Victim, round {i}.")),
                lambda: http.delete("/v1/tools/victim"),
                lambda: put(http, "a_mid", tool("a_mid", ["b_low", "victim"])),
                lambda: http.delete("/v1/tools/victim"),
            )
            statuses.update(r.status_code for r in results)
            put_statuses.update(r.status_code for r in (results[0], results[2]))
            for r in (results[0], results[2]):
                if r.status_code in (200, 201):  # the response shows what this PUT wrote
                    assert r.json()["tool"]["name"] in ("victim", "a_mid")
            stale_rounds += bool(stale_closures(graph))
            put(http, "a_mid", tool("a_mid", ["b_low"]))
    print(
        f"\nPUT/DELETE: {ROUNDS} rounds, statuses {dict(statuses)}, PUT statuses {dict(put_statuses)}, "
        f"rounds with a stale closure: {stale_rounds}"
    )
    assert set(statuses) <= {200, 201, 204, 404, 409}, statuses
    assert 404 not in put_statuses, put_statuses
    assert stale_rounds == 0


def test_concurrent_imports_sharing_a_new_tool_name_both_get_their_own(api, graph):
    """Item 4 of issue 23: both imports answered 200 and the first catalog silently lost its tool (then: one
    got a 409). Catalogs are namespaces now (issue 30): both succeed, each with its own tool of that name."""
    outcomes = Counter()
    with httpx.Client(base_url=api, timeout=CLIENT_TIMEOUT) as http:
        for i in range(IMPORT_ROUNDS):
            shared = f"shared_{i}"
            docs = {c: [tool(shared), tool(f"own_{c}_{i}")] for c in ("left", "right")}
            results = at_once(*[lambda c=c: http.post(f"/v1/catalogs/{c}/import", json=docs[c]) for c in docs])
            outcomes[tuple(sorted(r.status_code for r in results))] += 1
            owners = graph.read("MATCH (t:Tool {name: $n}) RETURN t.catalog AS c ORDER BY c", n=shared)
            assert [r["c"] for r in owners] == ["left", "right"]
    print(f"\nimports sharing a new name: {IMPORT_ROUNDS} rounds, status pairs {dict(outcomes)}")
    assert outcomes == Counter({(200, 200): IMPORT_ROUNDS})


def test_put_with_another_catalog_writes_that_catalogs_tool_and_never_moves_one(api, graph):
    """Item 10 of issue 21: `PUT ?catalog=B` moved a tool of catalog A silently. Catalogs are namespaces now
    (issue 30): it writes B's own tool of that name; A's is untouched; a bare name is then ambiguous."""
    with httpx.Client(base_url=api, timeout=CLIENT_TIMEOUT) as http:
        kept = put(http, "c_2", tool("c_2", [], "Kept."), catalog=None)  # one catalog holds it: that tool
        assert kept.status_code == 200 and kept.json()["tool"]["catalog"] == "chain"
        other = put(http, "c_2", tool("c_2", [], "Another c_2."), catalog="other", takeover="true")
        assert other.status_code == 201, other.text
        assert other.json()["tool"]["catalog"] == "other"
        rows = graph.read("MATCH (t:Tool {name: 'c_2'}) RETURN t.catalog AS c, t.description AS d ORDER BY c")
        assert rows == [{"c": "chain", "d": "Kept."}, {"c": "other", "d": "Another c_2."}]
        ambiguous = put(http, "c_2", tool("c_2", [], "Which?"), catalog=None)
        assert ambiguous.status_code == 409 and ambiguous.json()["catalogs"] == ["chain", "other"]
