"""Catalogs you can see and remove (issue 21 item 6): `kg-tools catalogs list|delete`, GET/DELETE
/v1/catalogs, against the real Neo4j. A delete runs in bounded batches, takes the catalog's
inference and merge runs with it, leaves other catalogs untouched, and a tool of another catalog
that depended on the deleted one (an edge across catalogs, as older versions wrote them) keeps a correct
precomputed closure."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from kg_tools import closure
from kg_tools.api.app import create_app
from kg_tools.catalog_store import delete_catalog, list_catalogs
from kg_tools.cypher import query
from kg_tools.deps import apply_run
from kg_tools.deps.offline import ProposedEdge
from kg_tools.ingest import load_catalog
from kg_tools.merge.plan import ClusterPlan, MemberLink, MergePlan
from kg_tools.merge.store import apply_plan
from tests.conftest import graph_snapshot, wipe
from tests.integration.test_cli_load import assert_one_error_line, cli_env, run_cli, tool, write  # noqa: F401

pytestmark = pytest.mark.integration
quiet = lambda *_: None  # noqa: E731

A_TOOLS = [
    tool("a_login"),
    tool("a_token", ["a_login"]),
    tool("a_search", ["a_token"]),
    tool("a_fetch"),
    tool("a_fetch_page"),
]
B_TOOLS = [tool("b_report", ["b_plain"]), tool("b_mail", ["b_report"]), tool("b_plain")]
# An edge from catalog b into catalog a, as versions before catalog namespaces could write (loads and PUTs
# keep edges inside a catalog now; such an edge is still followed, and a delete of a cuts it).
LEGACY_EDGE = """
MATCH (b:Tool {catalog: 'b', name: 'b_report'}), (a:Tool {catalog: 'a', name: 'a_search'})
CREATE (b)-[:TOOL_DIRECTLY_DEPENDS_ON {ord: 1, reason: 'legacy'}]->(a)
"""


@pytest.fixture
def two_catalogs(graph, embedder):
    """Catalog a (with one inference run and one merge run) and catalog b, whose tools depend on a."""
    wipe(graph)
    load_catalog(graph, embedder, A_TOOLS, "a", log=quiet, source="a.json")
    load_catalog(graph, embedder, B_TOOLS, "b", log=quiet, source="b.json")
    graph.write(LEGACY_EDGE)
    graph.transaction(lambda tx: closure.refresh(tx))
    apply_run(
        graph,
        "deps-test-a",
        "a",
        "offline",
        0.2,
        [ProposedEdge("a_fetch_page", "a_fetch", "TOOL_DIRECTLY_DEPENDS_ON", 0.9, "offline", "test")],
        [],
    )
    spec = {"name": "a_fetch", "description": "Fetch a URL or a page.", "parameters": []}
    plan = MergePlan(
        0.9,
        5,
        "a",
        "test",
        "test",
        "test",
        5,
        1,
        [],
        [
            ClusterPlan(
                "a_fetch",
                [MemberLink("a_fetch_page", 0.95, "test", "same tool")],
                spec["description"],
                [],
                spec,
                "test",
                "test",
            )
        ],
    )
    assert apply_plan(graph, plan).applied
    return graph


def closures(graph) -> dict[str, list[str]]:
    return {r["name"]: r["closure"] for r in graph.read("MATCH (t:Tool) RETURN t.name AS name, t.closure AS closure")}


def recomputed(graph) -> dict[str, list[str]]:
    """Every closure computed from scratch on the graph as it is now."""
    edges, merged = closure.read_graph(graph.read)
    keys = [tuple(r["key"]) for r in graph.read(query("closure_all_tools"))]
    return {r["name"]: r["closure"] for r in closure.compute_keys(edges, merged, keys)}


def test_list_shows_tools_edges_source_and_last_load(two_catalogs):
    by_name = {c["name"]: c for c in list_catalogs(two_catalogs)}
    assert set(by_name) == {"a", "b"}
    assert by_name["a"]["tools"] == 5 and by_name["a"]["edges"] == 3  # 2 hand-written + 1 inferred
    assert by_name["b"]["tools"] == 3 and by_name["b"]["edges"] == 3  # 2 + the legacy edge into a
    assert by_name["a"]["source"] == "a.json" and by_name["a"]["last_load_kind"] == "load"
    assert by_name["a"]["last_load"] and by_name["a"]["created"]


def test_reloading_an_unchanged_catalog_writes_nothing(two_catalogs, embedder):
    before = graph_snapshot(two_catalogs)
    load_catalog(two_catalogs, embedder, B_TOOLS, "b", log=quiet, source="b.json")
    assert graph_snapshot(two_catalogs) == before  # not even the catalog's last_load


def test_delete_in_batches_keeps_other_catalogs_and_their_closures(two_catalogs):
    assert closures(two_catalogs)["b_report"] == ["b_plain", "a_search", "a_token", "a_login"]
    result = delete_catalog(two_catalogs, "a", batch_size=2)
    assert result.model_dump() == {
        "catalog": "a",
        "tools": 5,
        "edges": 3,
        "dependency_runs": 1,
        "merge_runs": 1,
        "detached_edges": 1,
        "transactions": 6,  # detach, 1 of relationships, 3 of tools, runs and node
    }
    left = {
        r["name"]: r["catalog"] for r in two_catalogs.read("MATCH (t:Tool) RETURN t.name AS name, t.catalog AS catalog")
    }
    assert left == {"b_report": "b", "b_mail": "b", "b_plain": "b"}
    assert (
        two_catalogs.read(
            "MATCH (n) WHERE n:DependencyRun OR n:MergeRun OR n:Catalog AND n.name = 'a' RETURN count(n) AS n"
        )[0]["n"]
        == 0
    )
    assert closures(two_catalogs) == recomputed(two_catalogs)
    assert closures(two_catalogs)["b_mail"] == ["b_report", "b_plain"]
    assert [c["name"] for c in list_catalogs(two_catalogs)] == ["b"]


def test_delete_removes_relationships_in_bounded_batches_before_the_tools(graph, embedder):
    """A delete's transactions are bounded by relationships as well as by tools (a 100,000-tool catalog's
    DETACH DELETE of 5,000 tools with their edges ran out of transaction memory at the default heap)."""
    wipe(graph)
    load_catalog(graph, embedder, [tool("keep_me")], "keep", log=quiet)
    chain = [tool(f"c_{i}", [f"c_{i - 1}", "c_base"] if i else ["c_base"]) for i in range(60)] + [tool("c_base")]
    load_catalog(graph, embedder, chain, "c", log=quiet)
    lines: list[str] = []
    result = delete_catalog(graph, "c", batch_size=25, edge_batch_size=20, log=lines.append)
    # 59 edges along the chain and 60 to c_base: 6 batches of at most 20
    assert (result["tools"], result["edges"], result["detached_edges"]) == (61, 119, 0)
    assert [line for line in lines if "relationships" in line] == [
        f"deleted {n} relationships of catalog 'c'" for n in (20, 40, 60, 80, 100, 119)
    ]
    assert [line for line in lines if "tools" in line] == [f"deleted {n} tools of catalog 'c'" for n in (25, 50, 61)]
    assert result["transactions"] == 1 + 6 + 3 + 1
    assert [c["name"] for c in list_catalogs(graph)] == ["keep"]
    assert graph.read("MATCH ()-[r]->() RETURN count(r) AS n")[0]["n"] == 0


def test_cli_list_and_delete(two_catalogs, cli_env, capsys):
    code, out, err = run_cli(capsys, "catalogs", "list", "--json")
    assert code == 0, err
    listed = json.loads(out)["catalogs"]
    assert [(c["name"], c["tools"], c["source"]) for c in listed] == [("a", 5, "a.json"), ("b", 3, "b.json")]
    code, out, _ = run_cli(capsys, "catalogs", "list")
    assert code == 0 and out.splitlines()[1].startswith("a ") and "a.json" in out
    code, out, err = run_cli(capsys, "catalogs", "delete", "a", "--batch-size", "1")
    assert code == 0, err
    assert "deleted catalog 'a': 5 tools, 3 dependency edges, 1 inference runs, 1 merge runs" in out
    code, _, err = run_cli(capsys, "catalogs", "delete", "a")
    assert code == 1
    assert_one_error_line(err, "catalog not found", "'a'")


def test_api_list_and_delete(settings, two_catalogs, embedder):
    app = create_app(settings.model_copy(update={"api_key": "s3cret"}), graph=two_catalogs, embedder=embedder)
    with TestClient(app) as client:
        listed = client.get("/v1/catalogs")
        assert listed.status_code == 200
        assert [(c["name"], c["tools"], c["edges"]) for c in listed.json()["catalogs"]] == [("a", 5, 3), ("b", 3, 3)]
        assert client.delete("/v1/catalogs/a").status_code == 401
        assert client.delete("/v1/catalogs/a", headers={"Authorization": "Bearer wrong"}).status_code == 403
        key = {"Authorization": "Bearer s3cret"}
        missing = client.delete("/v1/catalogs/nope", headers=key)
        assert missing.status_code == 404 and missing.json()["error"] == "catalog_not_found"
        deleted = client.delete("/v1/catalogs/a", headers=key)
        assert deleted.status_code == 200, deleted.text
        assert deleted.json()["tools"] == 5 and deleted.json()["merge_runs"] == 1
        assert [c["name"] for c in client.get("/v1/catalogs").json()["catalogs"]] == ["b"]
        paths = client.get("/openapi.json").json()["paths"]
        assert paths["/v1/catalogs"]["get"]["responses"]["200"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/CatalogList"
        }
        assert set(paths["/v1/catalogs/{name}"]["delete"]["responses"]) >= {"200", "401", "403", "404", "503"}
