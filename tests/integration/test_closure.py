"""The precomputed dependency closure (default expansion) against the live expansion and the Cypher
that enumerates every path: identical rows for every ToolLinkOS tool as a seed, and still identical
after PUT and DELETE."""

from __future__ import annotations

import pytest

from kg_tools.closure import CLOSURE_SIZE, compute
from kg_tools.retrieval import queries
from kg_tools.retrieval.expansion import complete
from kg_tools.tool_store import ToolStore

pytestmark = pytest.mark.integration


def expansion(graph, names: list[str], closure: bool | str, d_limit: int = CLOSURE_SIZE) -> dict[str, list]:
    """Every name as a seed of one expansion query (one row per seed): name -> its dependencies.
    closure: True = the precomputed closure, False = the live expansion (reachable subgraph ordered in
    Python), "enumerated" = the reference Cypher that enumerates every path."""
    seeds, params = [{"name": n, "score": 1.0} for n in names], queries.expand_params(d_limit=d_limit)
    if closure == "enumerated":
        rows = graph.read_plain(*queries.expand_enumerated(5, seeds, params))
    else:
        cypher, query_params = queries.expand(5, seeds, params, closure=closure)
        assert ("closure_via" in cypher) == closure
        rows = complete(graph.read_plain(cypher, query_params), 5, params, graph.read_plain)
    assert [r["name"] for r in rows] == names
    return {r["name"]: [(d["name"], d["via"], sorted(d["members"])) for d in r["deps"]] for r in rows}


def all_names(graph) -> list[str]:
    return [r["name"] for r in graph.read("MATCH (t:Tool) RETURN t.name AS name ORDER BY name")]


def assert_same(graph, names=None):
    names = names or all_names(graph)
    stored = graph.read("MATCH (t:Tool) WHERE t.closure IS NULL RETURN count(t) AS n")[0]["n"]
    assert stored == 0, "every tool has a closure after a write"
    assert expansion(graph, names, closure=True) == expansion(graph, names, closure=False)


def test_closure_equals_traversal_on_every_toollinkos_tool(toollinkos_graph):
    names = all_names(toollinkos_graph)
    assert len(names) == 573
    fast, slow = expansion(toollinkos_graph, names, True), expansion(toollinkos_graph, names, False)
    assert fast == slow
    assert expansion(toollinkos_graph, names, "enumerated") == slow  # the reference semantics
    assert sum(len(v) for v in slow.values()) > 2000  # real expansions were compared, not empty lists
    assert max(len(v) for v in slow.values()) >= 10
    cut = {n: v for n, v in slow.items() if len(v) > 3}  # d_limit below the closure's length
    assert len(cut) > 100
    assert expansion(toollinkos_graph, list(cut), True, d_limit=3) == {n: v[:3] for n, v in cut.items()}


def test_closure_is_maintained_by_put_and_delete(toollinkos_graph, embedder):
    graph = toollinkos_graph
    store = ToolStore(graph)
    hub = graph.read("MATCH (t:Tool)<-[r]-() RETURN t.name AS name, count(r) AS n ORDER BY n DESC, name LIMIT 1")[0][
        "name"
    ]
    leaf = graph.read(
        "MATCH (t:Tool) WHERE NOT (t)-->() AND t.name <> $hub RETURN t.name AS name ORDER BY name LIMIT 1", hub=hub
    )[0]["name"]
    # PUT: the most used tool gets a new dependency -> every tool that reaches it changes.
    spec = store.get_tool(hub)["spec"]
    spec["depends_on"] = (spec.get("depends_on") or []) + [
        {"name": leaf, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": "test"}
    ]
    store.put_tool(hub, spec, embedder)
    reaching = [r["name"] for r in graph.read("MATCH (t:Tool) WHERE $hub IN t.closure RETURN t.name AS name", hub=hub)]
    assert len(reaching) > 50
    assert leaf in [d for d, *_ in expansion(graph, [hub], True)[hub]]
    assert_same(graph, reaching + [hub])
    # DELETE: the tools that listed it no longer do, and still match the traversal.
    store.delete_tool(leaf)
    assert not graph.read("MATCH (t:Tool) WHERE $leaf IN t.closure RETURN t.name LIMIT 1", leaf=leaf)
    assert_same(graph, reaching + [hub])


def test_compute_merges_members_paths_and_maps_to_canonical():
    edges = [
        {"source": "a", "target": "b", "ord": 0, "id": "ab"},
        {"source": "m", "target": "c", "ord": 0, "id": "mc"},
        {"source": "b", "target": "m", "ord": 0, "id": "bm"},
        {"source": "c", "target": "a", "ord": 0, "id": "ca"},
    ]
    # m is merged into a: a's paths start at a and at m; reaching m means reaching a (left out).
    result = compute(edges, {"m": "a"}, ["a", "b"])
    assert result["a"] == (["b", "c"], ["ab", "mc"])
    assert result["b"] == (["a", "c"], ["bm", "mc"])
