"""REST API against a real Neo4j: every endpoint and each error path (FastAPI TestClient)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from api.app import create_app
from kg_tools.processes import free_port
from tests import synthetic_catalog as syn
from tests.conftest import graph_snapshot
from tests.synthetic_catalog import A, B, C, D, E, F, G, H

pytestmark = pytest.mark.integration

HIT_KEYS = {"name", "kind", "role", "score", "via", "members", "spec", "function"}


@pytest.fixture
def syn_graph(graph, embedder):
    syn.load(graph, embedder)
    return graph


@pytest.fixture
def client(settings, graph, embedder, syn_graph):
    with TestClient(create_app(settings, graph=graph, embedder=embedder)) as c:
        yield c


@pytest.fixture
def locked_client(settings, graph, embedder, syn_graph):
    """The API with KG_TOOLS_API_KEY set."""
    with TestClient(create_app(settings.model_copy(update={"api_key": "s3cret"}), graph=graph,
                               embedder=embedder)) as c:
        yield c


@pytest.fixture
def dead_client(settings, embedder):
    """The API pointed at a port where no Neo4j listens (the app makes its own graph)."""
    dead = settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}"})
    with TestClient(create_app(dead, embedder=embedder)) as c:
        yield c


def edges_of(graph, name):
    return sorted((r["type"], r["target"], r["parameter_name"]) for r in graph.read(
        "MATCH (:Tool {name: $name})-[r]->(t:Tool) RETURN type(r) AS type, t.name AS target, "
        "r.parameter_name AS parameter_name", name=name))


# -- health ------------------------------------------------------------------------------------

def test_healthz_and_readyz(client):
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json()["indexes"]["tool_embedding"] == "ONLINE"
    assert ready.json()["indexes"]["tool_text"] == "ONLINE"


def test_readyz_503_when_an_index_is_missing(client, graph, embedder):
    graph.write("DROP INDEX tool_text")
    try:
        r = client.get("/readyz")
        assert r.status_code == 503
        assert "tool_text" in r.json()["detail"] and "missing" in r.json()["detail"]
    finally:
        from kg_tools.schema import apply_schema

        apply_schema(graph, embedder.dimension, embedder.name)


def test_openapi_docs(client):
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/v1/retrieve", "/v1/tools", "/v1/tools/{name}", "/v1/tools/{name}/dependencies", "/readyz"):
        assert path in paths
    assert set(paths["/v1/tools/{name}"]) == {"get", "put", "delete"}


# -- retrieve ----------------------------------------------------------------------------------

def test_retrieve_returns_seeds_then_dependencies(client):
    r = client.post("/v1/retrieve", json={"query": syn.document(A), "catalog": "syn-seeds", "k": 2})
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"tools", "stages", "timing_ms"}
    assert [t["name"] for t in body["tools"]] == [A, H, B, D, C, E, F, G]
    assert all(set(t) == HIT_KEYS for t in body["tools"])
    first, c = body["tools"][0], body["tools"][4]
    assert (first["kind"], first["role"], first["via"]) == ("regular", "seed", [])
    assert first["spec"] == syn.raw(A)
    assert first["function"]["type"] == "function" and first["function"]["function"]["name"] == A
    assert c["role"] == "dependency" and c["score"] is None
    assert c["via"] == [{"from": A, "type": "PARAMETER_DIRECTLY_DEPENDS_ON", "parameter_name": "travel_date",
                         "reason": f"needs {C}"}]
    assert [s["name"] for s in body["stages"]] == ["search", "expand", "order"]
    assert body["timing_ms"]["total"] >= body["timing_ms"]["embed"] > 0


def test_retrieve_options_pass_through(client):
    body = {"query": syn.document(A), "catalog": "syn-seeds", "k": 2, "K": 4, "depth": 1,
            "edge_types": ["TOOL_DIRECTLY_DEPENDS_ON", "TOOL_INDIRECTLY_DEPENDS_ON"]}
    assert [t["name"] for t in client.post("/v1/retrieve", json=body).json()["tools"]] == [A, H, B, F]
    r = client.post("/v1/retrieve", json={"query": "xylophone", "mode": "fulltext", "depth": 0, "k": 1})
    assert [t["name"] for t in r.json()["tools"]] == [syn.UNRELATED]


@pytest.mark.parametrize("body, field", [
    ({"query": ""}, "query"),
    ({"query": "   "}, "query"),
    ({}, "query"),
    ({"query": "x", "k": 0}, "k"),
    ({"query": "x", "k": 51}, "k"),
    ({"query": "x", "K": 129}, "K"),
    ({"query": "x", "K": 0}, "K"),
    ({"query": "x", "depth": 6}, "depth"),
    ({"query": "x", "depth": -1}, "depth"),
    ({"query": "x", "d_limit": 0}, "d_limit"),
    ({"query": "x", "alpha": 1.5}, "alpha"),
    ({"query": "x", "mode": "psychic"}, "mode"),
    ({"query": "x", "edge_types": ["LIKES"]}, "edge_types.0"),
    ({"query": "x", "colour": "red"}, "colour"),
])
def test_retrieve_422_names_the_field(client, body, field):
    r = client.post("/v1/retrieve", json=body)
    assert r.status_code == 422
    assert r.json()["error"] == "validation_error"
    assert [e["field"] for e in r.json()["errors"]] == [field]
    assert r.json()["detail"].startswith(f"{field}: ")


def test_retrieve_unknown_stage_422(client):
    r = client.post("/v1/retrieve", json={"query": "x", "stages": ["teleport"]})
    assert r.status_code == 422
    assert r.json()["error"] == "unknown_stage" and "teleport" in r.json()["detail"]


def test_neo4j_unreachable_is_503_everywhere(dead_client, settings):
    calls = [("post", "/v1/retrieve", {"json": {"query": "book a flight"}}), ("get", "/v1/tools", {}),
             ("get", f"/v1/tools/{A}", {}), ("get", f"/v1/tools/{A}/dependencies", {}),
             ("put", f"/v1/tools/{A}", {"json": syn.raw(A)}), ("delete", f"/v1/tools/{A}", {}),
             ("get", "/readyz", {})]
    for method, path, kwargs in calls:
        r = getattr(dead_client, method)(path, **kwargs)
        assert r.status_code == 503, (method, path, r.text)
        assert r.json()["error"] == "database_unavailable"
        assert "Neo4j is not reachable at bolt://127.0.0.1:" in r.json()["detail"]
    assert dead_client.get("/healthz").status_code == 200


# -- tool reads --------------------------------------------------------------------------------

def test_list_tools_paginates_by_name(client):
    everything = client.get("/v1/tools", params={"limit": 1000}).json()
    all_names = sorted(t["name"] for t in syn.ALL_TOOLS)
    assert everything["total"] == len(all_names)
    assert [t["name"] for t in everything["tools"]] == all_names
    page = client.get("/v1/tools", params={"offset": 2, "limit": 3}).json()
    assert (page["total"], page["offset"], page["limit"]) == (len(all_names), 2, 3)
    assert [t["name"] for t in page["tools"]] == all_names[2:5]
    assert set(page["tools"][0]) == {"name", "kind", "description", "catalog"}
    assert client.get("/v1/tools", params={"offset": 100}).json()["tools"] == []
    core = client.get("/v1/tools", params={"kind": "core"}).json()
    assert sorted(t["name"] for t in core["tools"]) == sorted(t["name"] for t in syn.ALL_TOOLS
                                                              if t["func_type"] == "core")
    seeds = client.get("/v1/tools", params={"catalog": "syn-seeds"}).json()
    assert [t["name"] for t in seeds["tools"]] == sorted([A, F])
    assert client.get("/v1/tools", params={"limit": 0}).status_code == 422


def test_get_tool_returns_the_spec_unchanged(client):
    r = client.get(f"/v1/tools/{A}")
    assert r.status_code == 200
    body = r.json()
    assert body["spec"] == syn.raw(A)
    assert (body["name"], body["kind"], body["catalog"]) == (A, "regular", "syn-seeds")
    assert body["function"]["function"]["name"] == A
    assert set(body["function"]["function"]["parameters"]["properties"]) == {"origin_airport", "travel_date"}
    assert client.get(f"/v1/tools/{B}").json()["kind"] == "core"


def test_unknown_tool_404(client):
    for method in ("get", "delete"):
        r = getattr(client, method)("/v1/tools/no_such_tool")
        assert r.status_code == 404
        assert r.json() == {"error": "tool_not_found", "detail": "tool not found: 'no_such_tool'",
                            "name": "no_such_tool"}
    assert client.get("/v1/tools/no_such_tool/dependencies").status_code == 404


def test_dependencies_depth_first(client):
    r = client.get(f"/v1/tools/{A}/dependencies")
    assert r.status_code == 200
    deps = r.json()["dependencies"]
    assert [d["name"] for d in deps] == [H, B, D, C, E]
    assert deps[2]["via"] == {"from": B, "type": "TOOL_INDIRECTLY_DEPENDS_ON", "parameter_name": None,
                              "reason": f"needs {D}"}
    one = client.get(f"/v1/tools/{A}/dependencies", params={"depth": 1}).json()
    assert (one["depth"], [d["name"] for d in one["dependencies"]]) == (1, [H, B, C])
    assert client.get(f"/v1/tools/{A}/dependencies", params={"depth": 0}).json()["dependencies"] == []
    typed = client.get(f"/v1/tools/{A}/dependencies", params={"edge_type": "PARAMETER_DIRECTLY_DEPENDS_ON"})
    assert [d["name"] for d in typed.json()["dependencies"]] == [C]
    for bad in (6, -1):
        r = client.get(f"/v1/tools/{A}/dependencies", params={"depth": bad})
        assert r.status_code == 422 and r.json()["errors"][0]["field"] == "depth"


# -- writes ------------------------------------------------------------------------------------

NEW_TOOL = {"name": "plan_trip_itinerary", "description": "Plan a multi-city trip itinerary with flights.",
            "func_type": "regular", "parameters": [{"name": "cities", "type": "list", "required": True}],
            "depends_on": [{"name": A, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": "books legs"},
                           {"name": F, "dependence_type": "PARAMETER_DEPENDS_ON", "parameter_name": "budget"}],
            "custom_field": {"kept": True}}


def test_put_creates_a_tool_with_its_edges(client, graph):
    r = client.put(f"/v1/tools/{NEW_TOOL['name']}", json=NEW_TOOL)
    assert r.status_code == 201, r.text
    assert r.json()["created"] is True and r.json()["tool"]["spec"] == NEW_TOOL
    assert r.json()["tool"]["catalog"] == "api"
    assert any("PARAMETER_DEPENDS_ON" in w for w in r.json()["warnings"])
    assert edges_of(graph, NEW_TOOL["name"]) == [("PARAMETER_DIRECTLY_DEPENDS_ON", F, "budget"),
                                                  ("TOOL_DIRECTLY_DEPENDS_ON", A, None)]
    assert client.get(f"/v1/tools/{NEW_TOOL['name']}").json()["spec"] == NEW_TOOL
    # Embedded: its own document finds it, and retrieval expands its new edges.
    from kg_tools.catalog import ToolSpec, tool_document

    found = client.post("/v1/retrieve", json={"query": tool_document(ToolSpec.model_validate(NEW_TOOL)),
                                              "k": 1, "K": 3}).json()
    assert [t["name"] for t in found["tools"]] == [NEW_TOOL["name"], A, H]


def test_put_replaces_node_and_outgoing_edges_only(client, graph):
    incoming_before = graph.read("MATCH (s)-[r]->(:Tool {name: $n}) RETURN s.name AS s, type(r) AS t",
                                           n=A)
    changed = syn.raw(A) | {"description": "Reserve seats on a plane.", "func_type": "core",
                            "depends_on": [{"name": G, "dependence_type": "TOOL_INDIRECTLY_DEPENDS_ON"}]}
    r = client.put(f"/v1/tools/{A}", json=changed)
    assert r.status_code == 200 and r.json()["created"] is False
    assert r.json()["tool"]["kind"] == "core" and r.json()["tool"]["catalog"] == "syn-seeds"
    assert edges_of(graph, A) == [("TOOL_INDIRECTLY_DEPENDS_ON", G, None)]
    labels = graph.read("MATCH (t:Tool {name: $n}) RETURN labels(t) AS l", n=A)[0]["l"]
    assert sorted(labels) == ["Core", "Tool"]
    incoming_after = graph.read("MATCH (s)-[r]->(:Tool {name: $n}) RETURN s.name AS s, type(r) AS t",
                                          n=A)
    assert sorted(map(tuple, incoming_after)) == sorted(map(tuple, incoming_before))
    assert [d["name"] for d in client.get(f"/v1/tools/{A}/dependencies").json()["dependencies"]] == [G]


def test_put_unknown_dependency_target_422_and_nothing_written(client, graph):
    before = graph_snapshot(graph)
    bad = syn.raw(A) | {"depends_on": [{"name": B, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"},
                                       {"name": "ghost_tool", "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"}]}
    r = client.put(f"/v1/tools/{A}", json=bad)
    assert r.status_code == 422
    assert r.json()["error"] == "invalid_tool"
    assert "'ghost_tool' is not a tool" in r.json()["detail"]
    assert graph_snapshot(graph) == before


@pytest.mark.parametrize("body, expected", [
    (syn.raw(B), "body has 'get_user_profile', path has 'book_flight_ticket'"),
    (syn.raw(A) | {"func_type": "utility"}, "func_type"),
    (syn.raw(A) | {"depends_on": [{"name": A, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"}]}, "self-loop"),
    (syn.raw(A) | {"depends_on": [{"name": B, "dependence_type": "LIKES"}]}, "unknown dependence_type 'LIKES'"),
])
def test_put_invalid_tool_422_names_the_problem(client, graph, body, expected):
    before = graph_snapshot(graph)
    r = client.put(f"/v1/tools/{A}", json=body)
    assert r.status_code == 422
    assert expected in r.json()["detail"]
    assert graph_snapshot(graph) == before


def test_put_body_must_be_an_object(client):
    r = client.put(f"/v1/tools/{A}", json=[syn.raw(A)])
    assert r.status_code == 422


def test_put_rolls_back_when_a_target_vanishes_during_the_request(settings, graph, embedder, syn_graph):
    """A concurrent delete between validation and write: the transaction notices and rolls back."""

    class DeletingEmbedder:  # the real embedder; embedding is the step between validation and write
        name, dimension = embedder.name, embedder.dimension

        def embed_query(self, text):
            return embedder.embed_query(text)

        def embed(self, texts, **kw):
            graph.write("MATCH (t:Tool {name: $n}) DETACH DELETE t", n=G)
            return embedder.embed(texts, **kw)

    changed = syn.raw(F) | {"description": "changed", "depends_on": [
        {"name": E, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"},
        {"name": G, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"}]}
    with TestClient(create_app(settings, graph=graph, embedder=DeletingEmbedder())) as c:
        r = c.put(f"/v1/tools/{F}", json=changed)
        assert r.status_code == 422, r.text
        assert f"{F} -> {G}" in r.json()["detail"]
    after_delete = graph_snapshot(graph)
    # F is exactly as before the PUT (old description, old edge to E only since G is gone).
    assert edges_of(graph, F) == [("PARAMETER_INDIRECTLY_DEPENDS_ON", E, "currency")]
    spec = graph.read("MATCH (t:Tool {name: $n}) RETURN t.spec AS s", n=F)[0]["s"]
    assert json.loads(spec) == syn.raw(F)
    assert graph_snapshot(graph) == after_delete


def test_delete_removes_the_tool_and_its_relationships(client, graph):
    assert client.delete(f"/v1/tools/{C}").status_code == 204
    assert client.get(f"/v1/tools/{C}").status_code == 404
    count = graph.read("MATCH (t:Tool {name: $n}) RETURN count(t) AS n", n=C)[0]["n"]
    assert count == 0
    assert C not in [d["name"] for d in client.get(f"/v1/tools/{A}/dependencies").json()["dependencies"]]
    assert client.delete(f"/v1/tools/{C}").status_code == 404


def test_writes_need_the_api_key_when_set(locked_client, graph):
    before = graph_snapshot(graph)
    for headers, status, error in [({}, 401, "unauthorized"),
                                   ({"Authorization": "Bearer wrong"}, 403, "forbidden"),
                                   ({"Authorization": "Basic czNjcmV0"}, 401, "unauthorized")]:
        r = locked_client.put(f"/v1/tools/{A}", json=syn.raw(A), headers=headers)
        assert (r.status_code, r.json()["error"]) == (status, error)
        r = locked_client.delete(f"/v1/tools/{A}", headers=headers)
        assert (r.status_code, r.json()["error"]) == (status, error)
    assert locked_client.put(f"/v1/tools/{A}", json=syn.raw(A)).headers["www-authenticate"] == "Bearer"
    assert graph_snapshot(graph) == before
    # Reads stay open; the right key writes.
    assert locked_client.get(f"/v1/tools/{A}").status_code == 200
    assert locked_client.post("/v1/retrieve", json={"query": "flight"}).status_code == 200
    ok = {"Authorization": "Bearer s3cret"}
    assert locked_client.put(f"/v1/tools/{A}", json=syn.raw(A), headers=ok).status_code == 200
    assert locked_client.delete(f"/v1/tools/{A}", headers=ok).status_code == 204


def test_writes_are_open_without_a_key(client):
    assert client.put(f"/v1/tools/{A}", json=syn.raw(A)).status_code == 200


# -- the CLI gives the same answer -------------------------------------------------------------

def test_cli_retrieve_json_matches_the_endpoint(client, settings):
    from kg_tools.cli import cli

    env = {"NEO4J_URI": settings.neo4j_uri, "NEO4J_USER": settings.neo4j_user,
           "NEO4J_PASSWORD": settings.neo4j_password}
    runner = CliRunner()
    out = runner.invoke(cli, ["retrieve", syn.document(A), "--catalog", "syn-seeds", "--k", "2", "--K", "7",
                              "--edge-type", "TOOL_DIRECTLY_DEPENDS_ON", "--edge-type",
                              "PARAMETER_DIRECTLY_DEPENDS_ON", "--json"], env=env)
    assert out.exit_code == 0, out.output
    from_cli = json.loads(out.output)
    from_api = client.post("/v1/retrieve", json={"query": syn.document(A), "catalog": "syn-seeds", "k": 2, "K": 7,
                                                 "edge_types": ["TOOL_DIRECTLY_DEPENDS_ON",
                                                                "PARAMETER_DIRECTLY_DEPENDS_ON"]}).json()
    assert from_cli["tools"] == from_api["tools"]
    assert [t["name"] for t in from_cli["tools"]] == [A, B, C, E, F, G]
    assert from_cli["stages"] == from_api["stages"]
    table = runner.invoke(cli, ["retrieve", syn.document(A), "--catalog", "syn-seeds", "--k", "2"], env=env)
    assert table.exit_code == 0
    lines = table.output.splitlines()
    assert lines[1].split()[:4] == ["1", A, "regular", "seed"]
    assert lines[5].split()[:4] == ["5", C, "core", "dependency"]
    bad = runner.invoke(cli, ["retrieve", "x", "--K", "500"], env=env)
    assert bad.exit_code != 0 and "K:" in bad.output
