"""The Python API (kg_tools.ogm, neomodel) against a real Neo4j: the synthetic catalog loaded with
`load_catalog`, then read through Tool.nodes, .dependencies, kinds and merged members; and the single-tool
read of the API/MCP (ToolStore.get_tool) served by it with the same JSON as the former Cypher read."""

from __future__ import annotations

import json

import pytest
from neomodel import StructuredNode, StructuredRel, db
from neomodel.config import get_config
from neomodel.sync_.relationship_manager import RelationshipManager

from kg_tools import ogm
from kg_tools.api import schemas
from kg_tools.ingest import load_catalog
from kg_tools.ogm import Core, DependsOn, Regular, Server, Tool
from kg_tools.retrieval.functions import openai_function
from kg_tools.tool_store import CORE_PROPERTIES, SPEC_FACTS, ToolStore
from tests.support import synthetic_catalog as syn
from tests.support.synthetic_catalog import UNRELATED, A, B, C, E, F, G

pytestmark = pytest.mark.integration


@pytest.fixture
def bound(graph, embedder):
    syn.load(graph, embedder)
    return ogm.bind(graph)


def test_get_returns_the_kind_class_with_the_node_properties(bound):
    tool = Tool.nodes.get(name=A)
    assert isinstance(tool, Regular) and tool.kind == "regular"
    assert tool.catalog == "syn-seeds" and tool.description.startswith("Book an airplane")
    assert json.loads(tool.spec) == syn.raw(A) == tool.spec_json()
    assert len(tool.embedding) > 0 and tool.embedding_model
    core = Tool.nodes.get(name=B)
    assert isinstance(core, Core) and core.kind == "core"
    assert {t.name for t in Core.nodes.all()} == {t["name"] for t in syn.ALL_TOOLS if t["func_type"] == "core"}
    assert UNRELATED in {t.name for t in Regular.nodes.filter(catalog="syn-deps")}
    assert Tool.nodes.get_or_none(name="no_such_tool") is None


def test_dependencies_are_the_typed_edges_in_listing_order(bound):
    deps = Tool.nodes.get(name=A).dependencies
    assert [(d.type, d.tool.name, d.rel.parameter_name) for d in deps] == [
        ("TOOL_INDIRECTLY_DEPENDS_ON", syn.H, None),
        ("TOOL_DIRECTLY_DEPENDS_ON", B, None),
        ("PARAMETER_DIRECTLY_DEPENDS_ON", C, "travel_date"),
    ]
    assert all(isinstance(d.rel, DependsOn) for d in deps)
    assert [d.rel.ord for d in deps] == [0, 1, 2] and deps[2].rel.reason == f"needs {C}"
    assert deps[1].rel.inferred is None and isinstance(deps[1].tool, Core)
    f_deps = Tool.nodes.get(name=F).dependencies
    assert [(d.type, d.tool.name, d.rel.parameter_name) for d in f_deps] == [
        ("PARAMETER_INDIRECTLY_DEPENDS_ON", E, "currency"),
        ("TOOL_DIRECTLY_DEPENDS_ON", G, None),
    ]
    assert Tool.nodes.get(name=E).dependencies == []
    # the relationship managers read the same edges
    assert [t.name for t in Tool.nodes.get(name=A).parameter_directly_depends_on.all()] == [C]


def test_inferred_edge_properties_and_merged_members(bound):
    # what `kg-tools deps` (deps_apply.cypher) and `kg-tools merge` (merge_apply.cypher) write
    bound.write(
        "MATCH (a:Tool {name: $a}), (b:Tool {name: $b}) "
        "CREATE (a)-[:TOOL_DIRECTLY_DEPENDS_ON {reason: 'r', ord: 1000, original_type: 'TOOL_DIRECTLY_DEPENDS_ON', "
        "inferred: true, run: 'run-1', confidence: 0.75, method: 'rules'}]->(b)",
        a=E,
        b=G,
    )
    bound.write(
        "MATCH (m:Tool {name: $m}), (c:Tool {name: $c}) "
        "CREATE (m)-[:MERGED_INTO {run: 'merge-1', score: 0.9, method: 'embedding', reason: 'same'}]->(c)",
        m=UNRELATED,
        c=G,
    )
    (dep,) = Tool.nodes.get(name=E).dependencies
    assert (dep.type, dep.tool.name, dep.rel.inferred, dep.rel.run, dep.rel.confidence, dep.rel.method) == (
        "TOOL_DIRECTLY_DEPENDS_ON",
        G,
        True,
        "run-1",
        0.75,
        "rules",
    )
    canonical = Tool.nodes.get(name=G)
    assert [m.name for m in canonical.merged_members.all()] == [UNRELATED]
    member = Tool.nodes.get(name=UNRELATED)
    assert member.merged_into.single().name == G
    assert member.merged_into.relationship(canonical).method == "embedding"


def test_bind_shares_the_graphs_driver_and_database(bound):
    assert db.driver is bound.driver
    assert get_config().database_name == bound.database == db._database_name
    assert ogm.read(bound, lambda: Tool.nodes.get(name=C).kind) == "core"  # inside the Graph's transaction


def cypher_get_tool(graph, name):
    """The former ToolStore.get_tool (cypher/get_tool.cypher), to show the JSON did not change."""
    t = graph.read(
        "MATCH (t:Tool {name: $name}) RETURN t.name AS name, t.func_type AS func_type, "
        "t.catalog AS catalog, t.description AS description, t.spec AS spec",
        name=name,
    )[0]
    spec = json.loads(t["spec"]) if t["spec"] else {"name": t["name"], "description": t["description"] or ""}
    return {
        "name": t["name"],
        "kind": "core" if t["func_type"] == "core" else "regular",
        "catalog": t["catalog"],
        "spec": spec,
        "function": openai_function(spec),
        **{k: spec.get(k) for k in SPEC_FACTS},
        **dict.fromkeys(CORE_PROPERTIES),  # added since (kg-tools core detect): null until detection runs
    }


def test_store_get_tool_is_byte_identical_to_the_cypher_read(bound):
    bound.write("CREATE (:Tool:Regular {name: 'bare_tool', catalog: 'x'})")  # no spec, no description
    store = ToolStore(bound)
    for name in [t["name"] for t in syn.ALL_TOOLS] + ["bare_tool"]:
        assert json.dumps(store.get_tool(name).model_dump()) == json.dumps(cypher_get_tool(bound, name))


def test_server_provides_its_catalogs_tools(bound):
    # what `kg-tools gateway` writes for an upstream (cypher/gateway_server_upsert.cypher)
    bound.write(
        "MERGE (s:Server {name: 'syn-seeds'}) SET s.title = 'Seeds', s.version = '1.0' WITH s "
        "MATCH (t:Tool {catalog: s.name}) MERGE (s)-[:PROVIDES]->(t)"
    )
    server = Server.nodes.get(name="syn-seeds")
    assert (server.title, server.version) == ("Seeds", "1.0")
    assert sorted(t.name for t in server.tools.all()) == sorted([A, F])
    assert [s.name for s in Tool.nodes.get(name=A).servers.all()] == ["syn-seeds"]


# -- writes: PUT and DELETE /v1/tools/{name} (ToolStore.put_tool / delete_tool) go through neomodel --


def node_state(graph, name: str) -> dict:
    """A tool as stored: labels, properties (closures aside) and outgoing edges with their properties."""
    row = graph.read(
        "MATCH (t:Tool {name: $name}) "
        "OPTIONAL MATCH (t)-[r]->(b:Tool) WITH t, r, b ORDER BY type(r), b.name, r.ord "
        "RETURN labels(t) AS labels, properties(t) AS props, "
        "[x IN collect([type(r), b.name, properties(r), elementId(r)]) WHERE x[0] IS NOT NULL] AS edges",
        name=name,
    )[0]
    props = {k: v for k, v in row["props"].items() if k not in ("closure", "closure_via")}
    return {"labels": sorted(row["labels"]), "props": props, "edges": row["edges"]}


@pytest.fixture
def neomodel_calls(monkeypatch):
    """Which neomodel writes ran (each still does its real work on the real Neo4j)."""

    calls: list[str] = []
    for cls, method in [
        (StructuredNode, "save"),
        (StructuredNode, "delete"),
        (StructuredRel, "save"),
        (RelationshipManager, "connect"),
    ]:
        original = getattr(cls, method)

        def wrapped(self, *args, _original=original, _name=f"{cls.__name__}.{method}", **kwargs):
            calls.append(_name)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(cls, method, wrapped)
    return calls


def test_put_of_an_unchanged_tool_rewrites_it_as_loaded(bound, embedder, neomodel_calls):
    before = node_state(bound, B)  # B's edges stay inside its catalog (a PUT's targets are of the same catalog)
    result = ToolStore(bound).put_tool(B, syn.raw(B), embedder)
    assert result["created"] is False and result["tool"]["catalog"] == "syn-deps"
    assert node_state(bound, B) == before  # same labels, properties, edges (the same edges: element ids kept)
    assert neomodel_calls.count("StructuredNode.save") == 1 and neomodel_calls.count("StructuredRel.save") == 1


def test_a_tool_put_through_neomodel_is_the_node_a_load_writes(bound, embedder, neomodel_calls):
    probe = {
        "name": "neomodel_probe",
        "description": "Probe the neomodel write path.",
        "func_type": "core",
        "parameters": [{"name": "when", "type": "string", "description": "a date", "required": True}],
        "title": "Probe",
        "annotations": {"readOnlyHint": True},
        "depends_on": [
            {"name": C, "dependence_type": "PARAMETER_DIRECTLY_DEPENDS_ON", "parameter_name": "when", "reason": "r1"},
            {"name": B, "dependence_type": "TOOL_DEPENDS_ON", "reason": "r2"},
        ],
    }
    store = ToolStore(bound)
    assert store.put_tool("neomodel_probe", probe, embedder, "syn-deps")["created"] is True
    assert "StructuredNode.save" in neomodel_calls and neomodel_calls.count("RelationshipManager.connect") == 2
    put = node_state(bound, "neomodel_probe")
    store.delete_tool("neomodel_probe")
    assert "StructuredNode.delete" in neomodel_calls and Tool.nodes.get_or_none(name="neomodel_probe") is None
    load_catalog(bound, embedder, [probe], "syn-deps", log=lambda *_: None)
    loaded = node_state(bound, "neomodel_probe")
    assert put["labels"] == loaded["labels"] == ["Core", "Tool"]
    # a load gives each tool its place in the load (many-server inference reads it); a PUT has none (it goes last)
    assert "position" not in put["props"] and isinstance(loaded["props"].pop("position"), int)
    assert put["props"] == loaded["props"]
    assert [e[:3] for e in put["edges"]] == [e[:3] for e in loaded["edges"]]
    assert [e[1] for e in put["edges"]] == [C, B]  # by type: PARAMETER_... first


def test_put_changes_kind_and_edges_and_leaves_inferred_edges_to_their_run(bound, embedder):
    bound.write(
        "MATCH (a:Tool {name: $a}), (b:Tool {name: $b}) "
        "CREATE (a)-[:TOOL_DIRECTLY_DEPENDS_ON {reason: 'inferred', ord: 1000, inferred: true, run: 'run-1'}]->(b)",
        a=B,
        b=G,
    )
    kept = {e[1]: e[3] for e in node_state(bound, B)["edges"]}
    raw = syn.raw(B)
    raw["func_type"] = "regular"
    raw["depends_on"] = [
        raw["depends_on"][0] | {"reason": "changed"},
        {"name": E, "dependence_type": "TOOL_DEPENDS_ON"},
    ]
    assert ToolStore(bound).put_tool(B, raw, embedder)["created"] is False
    after = node_state(bound, B)
    assert after["labels"] == ["Regular", "Tool"] and isinstance(Tool.nodes.get(name=B), Regular)
    edges = {(e[0], e[1]): e for e in after["edges"]}
    assert set(edges) == {
        ("TOOL_INDIRECTLY_DEPENDS_ON", syn.D),  # kept in place, reason changed
        ("TOOL_DIRECTLY_DEPENDS_ON", E),  # new
        ("TOOL_DIRECTLY_DEPENDS_ON", G),  # inferred: untouched
    }
    assert edges[("TOOL_INDIRECTLY_DEPENDS_ON", syn.D)][2]["reason"] == "changed"
    assert edges[("TOOL_INDIRECTLY_DEPENDS_ON", syn.D)][3] == kept[syn.D]
    assert edges[("TOOL_DIRECTLY_DEPENDS_ON", G)][2]["run"] == "run-1"
    # the closure follows the new edges (recomputed in the same transaction)
    assert E in Tool.nodes.get(name=B).closure


# -- neomodel's public transactions: neomodel calls and Cypher on `tx` are one transaction --


def test_write_is_one_neomodel_transaction_with_the_cypher_on_tx(bound):
    def work(tx, fail: bool):
        ogm.Catalog(name="tx_probe").save()  # neomodel
        tx.run("CREATE (:TxProbe {name: $name})", name="tx_probe").consume()  # Cypher on tx, same transaction
        seen = tx.run("MATCH (c:Catalog {name: $name}) RETURN c.name AS name", name="tx_probe").single()
        if fail:
            raise RuntimeError("boom")
        return seen["name"]

    with pytest.raises(RuntimeError, match="boom"):
        ogm.write(bound, lambda tx: work(tx, fail=True))
    probes = "MATCH (n) WHERE n:TxProbe OR n:Catalog AND n.name = 'tx_probe' RETURN count(n) AS n"
    assert bound.read(probes)[0]["n"] == 0  # both rolled back
    assert ogm.write(bound, lambda tx: work(tx, fail=False)) == "tx_probe"
    assert bound.read(probes)[0]["n"] == 2
    assert ogm.read(bound, lambda: ogm.Catalog.nodes.get(name="tx_probe").name) == "tx_probe"
    bound.write("MATCH (n) WHERE n:TxProbe OR n:Catalog AND n.name = 'tx_probe' DETACH DELETE n")


def test_store_results_are_the_models_the_api_serves(bound):
    store = ToolStore(bound)
    assert isinstance(store.get_tool(A), schemas.ToolDetail)
    page = store.list_tools(limit=2)
    assert isinstance(page, schemas.ToolPage) and page.offset == 0 and len(page.tools) == 2
    assert page["total"] == page.total  # dict-style reads still work for callers written against dicts
    with pytest.raises(KeyError):
        page["nope"]
