"""Dependencies learned from real calls (kg_tools/deps/observed.py): `kg-tools gateway --transport http`
in front of a real upstream (tests/support/gateway_upstream.py --flow), driven by the SDK's client in distinct
MCP sessions. A value of lookup_member's result passed to ship_parcel is observed, stays in shadow
(retrieval unchanged) until seen in KG_TOOLS_OBSERVED_PROMOTE_AFTER sessions, is then a dependency edge
that search_tools expands to, and is gone after `kg-tools deps undo RUN`."""

from __future__ import annotations

import json
import sys
import time

import anyio
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from kg_tools import PROJECT_ROOT
from kg_tools.deps.observed import Flow, list_observed, record
from tests.conftest import wipe
from tests.support.cli_process import kg_tools_env, kg_tools_process, start_http, stop_http

pytestmark = pytest.mark.integration

UPSTREAM = PROJECT_ROOT / "tests" / "support" / "gateway_upstream.py"
TOKEN = "agent-" + "o" * 20
CONSUMER, PROVIDER = "club__ship_parcel", "club__lookup_member"
QUERY = "ship a parcel with the given contents to a consignee"
PROMOTE_AFTER = 3


def payload(result) -> dict:
    assert not result.is_error, result.content
    return result.structured_content or json.loads(result.content[0].text)


def one_session(port: int, *, flow: bool = True) -> list[dict]:
    """One MCP session: search_tools, then (flow) lookup_member and ship_parcel with the member_ref it
    returned. The search_tools answer."""

    found: list[dict] = []

    async def run():
        client = create_mcp_http_client({"Authorization": f"Bearer {TOKEN}"})
        async with (
            client,
            streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            found.extend(payload(await session.call_tool("search_tools", {"query": QUERY, "k": 1}))["tools"])
            if not flow:
                return
            card = payload(await session.call_tool("call_tool", {"name": PROVIDER, "arguments": {"nickname": "ada"}}))[
                "card"
            ]
            shipped = await session.call_tool(
                "call_tool",
                {"name": CONSUMER, "arguments": {"consignee": card["member_ref"], "contents": "books"}},
            )
            assert payload(shipped)["shipped"] is True

    anyio.run(run)
    return found


def observed(settings) -> list[dict]:
    done = kg_tools_process("deps", "observed", "--json", neo4j=settings)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["promote_after"] == PROMOTE_AFTER
    return [r for r in document["observations"] if (r["consumer"], r["provider"]) == (CONSUMER, PROVIDER)]


def wait_for(check, what: str, timeout: float = 60):
    """Recording runs in the gateway's background: poll until `check()` is truthy."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def edges(graph) -> list[dict]:
    return graph.read(
        "MATCH (:Tool {name: $c})-[r]->(:Tool {name: $p}) WHERE type(r) <> 'OBSERVED_FLOW' "
        "RETURN type(r) AS type, properties(r) AS props",
        c=CONSUMER,
        p=PROVIDER,
    )


def test_a_flow_seen_in_n_sessions_is_promoted_to_an_edge_and_undone_like_a_run(settings, graph, tmp_path):
    wipe(graph)
    config = {
        "mcpServers": {"club": {"command": sys.executable, "args": [str(UPSTREAM), "--flow"]}},
        "kg-tools": {
            "start_timeout": 30,
            "call_timeout": 30,
            "default_profile": "agent",
            "profiles": {"agent": {"allow_destructive": ["club__*"], "token": TOKEN}},
        },
    }
    path = tmp_path / "gateway.json"
    path.write_text(json.dumps(config))
    proc, port = start_http(
        ["gateway", "--config", str(path)],
        kg_tools_env(settings, KG_TOOLS_OBSERVED_PROMOTE_AFTER=str(PROMOTE_AFTER)),
        "kg-tools gateway --transport http",
        stderr=(tmp_path / "gateway.log").open("w"),
    )
    try:
        assert edges(graph) == [], "the sync's own inference must not link the pair (the test needs it unlinked)"

        # sessions 1 .. N-1: observed, in shadow -- no edge, retrieval unchanged
        for n in range(1, PROMOTE_AFTER):
            found = one_session(port)
            assert [t["name"] for t in found] == [CONSUMER], found
            rows = wait_for(lambda n=n: [r for r in observed(settings) if r["sessions"] == n], f"session {n}")
            (row,) = rows
            assert row["parameter_name"] == "consignee" and row["count"] == n
            assert row["status"] == "shadow" and row["run"] is None
            assert edges(graph) == []
        # no value is stored, only counts and session hashes
        stored = graph.read("MATCH ()-[o:OBSERVED_FLOW]->() RETURN properties(o) AS p")[0]["p"]
        assert set(stored) == {"parameter_name", "count", "sessions", "first_seen", "last_seen"}
        assert all(len(h) == 16 for h in stored["sessions"]) and not any("M-" in h for h in stored["sessions"])

        # session N: promoted, in one transaction with the consumer's closure
        assert [t["name"] for t in one_session(port)] == [CONSUMER]
        (edge,) = wait_for(lambda: edges(graph), "the promotion")
        props = edge["props"]
        assert edge["type"] == "PARAMETER_DIRECTLY_DEPENDS_ON"
        assert props["observed"] is True and props["parameter_name"] == "consignee"
        assert props["run"].startswith("obs-") and props["confidence"] == 0.875
        assert props["reason"] == (
            f"seen {PROMOTE_AFTER} times in {PROMOTE_AFTER} sessions: consignee of {CONSUMER} "
            f"took a value from {PROVIDER}'s result"
        )
        closure = graph.read("MATCH (t:Tool {name: $c}) RETURN t.closure AS c", c=CONSUMER)[0]["c"]
        assert closure == [PROVIDER]
        (row,) = observed(settings)
        assert row["status"] == "promoted" and row["run"] == props["run"]
        runs = kg_tools_process("deps", "list", "--json", neo4j=settings)
        assert props["run"] in {r["id"] for r in json.loads(runs.stdout)["runs"]}

        # retrieval now expands the consumer to its observed dependency, and says why
        found = one_session(port, flow=False)
        assert [t["name"] for t in found] == [CONSUMER, PROVIDER], found
        assert found[1]["why"].startswith(f"needed by {CONSUMER} for parameter 'consignee' (observed in real calls): ")

        # undo like a run: the edge goes, retrieval is as before, and the flow is not promoted again
        undone = kg_tools_process("deps", "undo", props["run"], neo4j=settings)
        assert undone.returncode == 0, undone.stderr
        assert edges(graph) == []
        assert graph.read("MATCH (t:Tool {name: $c}) RETURN t.closure AS c", c=CONSUMER)[0]["c"] == []
        assert [t["name"] for t in one_session(port)] == [CONSUMER]
        (row,) = wait_for(lambda: [r for r in observed(settings) if r["count"] == PROMOTE_AFTER + 1], "session N+1")
        assert row["status"] == "undone" and edges(graph) == []
    finally:
        stop_http(proc)
        stderr = (tmp_path / "gateway.log").read_text()
        print(stderr)
    assert "recording observed flows failed" not in stderr and "observing" not in stderr, stderr


def test_sightings_count_per_session_and_a_linked_pair_is_not_promoted(graph):
    wipe(graph)
    graph.write(
        "CREATE (a:Tool:Regular {name: 'a__use', catalog: 'a'}), (b:Tool:Regular {name: 'a__make', catalog: 'a'}),"
        " (c:Tool:Regular {name: 'a__list', catalog: 'a'}),"
        " (a)-[:PARAMETER_DIRECTLY_DEPENDS_ON {ord: 0, parameter_name: 'id', reason: 'hand-written'}]->(b)"
    )
    linked, fresh = Flow("a__make", "a__use", "id"), Flow("a__list", "a__use", "id")
    for _ in range(3):  # three sightings in one session: one distinct session
        assert record(graph, [fresh], "s1", promote_after=2) == []
    for session in ("s1", "s2", "s3"):
        record(graph, [linked], session, promote_after=2)
    rows = {r["provider"]: r for r in list_observed(graph)}
    assert (rows["a__list"]["count"], rows["a__list"]["sessions"], rows["a__list"]["status"]) == (3, 1, "shadow")
    assert (rows["a__make"]["sessions"], rows["a__make"]["status"]) == (3, "exists")
    (promoted,) = record(graph, [fresh], "s2", promote_after=2)
    assert promoted["reason"].startswith("seen 4 times in 2 sessions: id of a__use")
    rows = {r["provider"]: r for r in list_observed(graph)}
    assert rows["a__list"]["status"] == "promoted" and rows["a__make"]["status"] == "exists"
    # in one transaction with the closure refresh of its consumer
    closure = graph.read("MATCH (t:Tool {name: 'a__use'}) RETURN t.closure AS c")[0]["c"]
    assert closure == ["a__make", "a__list"]
    assert (
        graph.read("MATCH ()-[r:PARAMETER_DIRECTLY_DEPENDS_ON {observed: true}]->() RETURN count(r) AS n")[0]["n"] == 1
    )


def test_a_flow_is_recorded_and_promoted_between_the_tools_of_its_catalogs_only(graph):
    """A tool is (catalog, name): catalog `shop` holds tools named like gateway server a's; a's flow counts and
    is promoted between a's tools, never shop's."""
    wipe(graph)
    graph.write(
        "UNWIND ['a', 'shop'] AS catalog "
        "CREATE (:Tool:Regular {name: 'a__use', catalog: catalog}), (:Tool:Regular {name: 'a__list', catalog: catalog})"
    )
    flow = Flow("a__list", "a__use", "id", provider_catalog="a", consumer_catalog="a")
    record(graph, [flow], "s1", promote_after=2)
    (promoted,) = record(graph, [flow], "s2", promote_after=2)
    assert promoted["consumer_catalog"] == "a"
    pairs = graph.read(
        "MATCH (c:Tool)-[r:OBSERVED_FLOW|PARAMETER_DIRECTLY_DEPENDS_ON]->(p:Tool) "
        "RETURN type(r) AS type, c.catalog AS consumer, p.catalog AS provider ORDER BY type"
    )
    assert [(r["type"], r["consumer"], r["provider"]) for r in pairs] == [
        ("OBSERVED_FLOW", "a", "a"),
        ("PARAMETER_DIRECTLY_DEPENDS_ON", "a", "a"),
    ]
    (row,) = list_observed(graph)
    assert (row["consumer_catalog"], row["provider_catalog"], row["status"]) == ("a", "a", "promoted")
