"""REST API against a real Neo4j: every endpoint and each error path (FastAPI TestClient)."""

from __future__ import annotations

import base64
import json
import time
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from kg_tools.api.app import create_app
from kg_tools.cli import cli
from kg_tools.processes import free_port
from kg_tools.retrieval.queries import LUCENE_MAX_TOKENS, lucene_query
from kg_tools.schema import apply_schema
from kg_tools.tool_spec import ToolSpec, tool_document
from tests.conftest import graph_snapshot
from tests.support import synthetic_catalog as syn
from tests.support.cli_process import neo4j_env
from tests.support.synthetic_catalog import A, B, C, D, E, F, G, H

pytestmark = pytest.mark.integration

HIT_KEYS = {"name", "catalog", "kind", "role", "score", "via", "members", "spec", "function"}


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
    with TestClient(create_app(settings.model_copy(update={"api_key": "s3cret"}), graph=graph, embedder=embedder)) as c:
        yield c


@pytest.fixture
def dead_client(settings, embedder):
    """The API pointed at a port where no Neo4j listens (the app makes its own graph)."""
    dead = settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}"})
    with TestClient(create_app(dead, embedder=embedder)) as c:
        yield c


def edges_of(graph, name):
    return sorted(
        (r["type"], r["target"], r["parameter_name"])
        for r in graph.read(
            "MATCH (:Tool {name: $name})-[r]->(t:Tool) RETURN type(r) AS type, t.name AS target, "
            "r.parameter_name AS parameter_name",
            name=name,
        )
    )


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
        apply_schema(graph, embedder.dimension, embedder.name)


def test_openapi_docs(client):
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/v1/retrieve", "/v1/tools", "/v1/tools/{name}", "/v1/tools/{name}/dependencies", "/readyz"):
        assert path in paths
    assert set(paths["/v1/tools/{name}"]) == {"get", "put", "delete"}


def test_openapi_documents_the_limits(client, settings):
    """The limits the server enforces are in the schema: the maxLength of the tool name and of the
    description (those of the model that validates tools) and, on PUT and on POST /v1/retrieve, a 413
    with the Error model that states this server's body limit."""

    limits = ToolSpec.model_json_schema()["properties"]
    name_max, description_max = limits["name"]["maxLength"], limits["description"]["maxLength"]
    schema = client.get("/openapi.json").json()
    for path in ("/v1/tools/{name}", "/v1/tools/{name}/dependencies"):
        for method, operation in schema["paths"][path].items():
            name = next(p for p in operation["parameters"] if p["in"] == "path" and p["name"] == "name")
            assert name["schema"]["maxLength"] == name_max, (method, path)
    put = schema["paths"]["/v1/tools/{name}"]["put"]
    body = put["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["name"]["maxLength"] == name_max
    description = body["properties"]["description"]
    assert [b["maxLength"] for b in description.get("anyOf", [description]) if b.get("type") == "string"] == [
        description_max
    ]
    retrieve = schema["paths"]["/v1/retrieve"]["post"]
    for operation in (put, retrieve):
        too_large = operation["responses"]["413"]
        assert too_large["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
        assert f"{settings.api_max_body_bytes:,} bytes" in too_large["description"]
    # the stated limit is the configured one (the schema is made per server)
    small = create_app(settings.model_copy(update={"api_max_body_bytes": 4096, "api_max_import_bytes": 8192}))
    small_schema = TestClient(small).get("/openapi.json").json()["paths"]  # no lifespan: no graph needed
    assert "4,096 bytes" in small_schema["/v1/retrieve"]["post"]["responses"]["413"]["description"]
    assert "8,192 bytes" in small_schema["/v1/catalogs/{name}/import"]["post"]["responses"]["413"]["description"]


# -- retrieve ----------------------------------------------------------------------------------


def test_retrieve_returns_seeds_then_dependencies(client):
    r = client.post("/v1/retrieve", json={"query": syn.document(A), "catalog": "syn-seeds", "k": 2})
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"tools", "stages", "timing_ms"}
    assert [t["name"] for t in body["tools"]] == [A, H, B, D, C, E, F, G]
    assert all(set(t) == HIT_KEYS for t in body["tools"])
    # each tool names its own catalog: the seeds', and that of the dependencies they reach in another one
    assert {(t["role"], t["catalog"]) for t in body["tools"]} == {("seed", "syn-seeds"), ("dependency", "syn-deps")}
    first, c = body["tools"][0], body["tools"][4]
    assert (first["kind"], first["role"], first["via"]) == ("regular", "seed", [])
    assert first["spec"] == syn.raw(A)
    assert first["function"]["type"] == "function" and first["function"]["function"]["name"] == A
    assert c["role"] == "dependency" and c["score"] is None
    assert c["via"] == [
        {
            "from": A,
            "type": "PARAMETER_DIRECTLY_DEPENDS_ON",
            "parameter_name": "travel_date",
            "reason": f"needs {C}",
            "inferred": False,
            "confidence": None,
        }
    ]
    assert [s["name"] for s in body["stages"]] == ["search", "expand", "rerank-offline", "order"]
    assert body["timing_ms"]["total"] >= body["timing_ms"]["embed"] > 0


def test_retrieve_options_pass_through(client):
    body = {
        "query": syn.document(A),
        "catalog": "syn-seeds",
        "k": 2,
        "K": 4,
        "depth": 1,
        "edge_types": ["TOOL_DIRECTLY_DEPENDS_ON", "TOOL_INDIRECTLY_DEPENDS_ON"],
    }
    assert [t["name"] for t in client.post("/v1/retrieve", json=body).json()["tools"]] == [A, H, B, F]
    r = client.post("/v1/retrieve", json={"query": "xylophone", "mode": "fulltext", "depth": 0, "k": 1})
    assert [t["name"] for t in r.json()["tools"]] == [syn.UNRELATED]


@pytest.mark.parametrize(
    "body, field",
    [
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
    ],
)
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
    """Issue #8 item 3: with Neo4j down every route answers 503 at once (GET /v1/merges took 30 s)."""
    calls = [
        ("post", "/v1/retrieve", {"json": {"query": "book a flight"}}),
        ("get", "/v1/tools", {}),
        ("get", f"/v1/tools/{A}", {}),
        ("get", f"/v1/tools/{A}/dependencies", {}),
        ("put", f"/v1/tools/{A}", {"json": syn.raw(A)}),
        ("delete", f"/v1/tools/{A}", {}),
        ("get", "/v1/merges", {}),
        ("get", "/v1/merges/plan", {}),
        ("post", "/v1/merges", {"json": {}}),
        ("delete", "/v1/merges/merge-0", {}),
        ("get", "/v1/deps/runs", {}),
        ("post", "/v1/deps/infer", {"json": {}}),
        ("delete", "/v1/deps/runs/deps-0", {}),
        ("post", "/v1/catalogs/x/import", {"json": [syn.raw(A)]}),
        ("get", "/readyz", {}),
    ]
    for method, path, kwargs in calls:
        t0 = time.perf_counter()
        r = getattr(dead_client, method)(path, **kwargs)
        elapsed = time.perf_counter() - t0
        assert r.status_code == 503, (method, path, r.text)
        assert r.json()["error"] == "database_unavailable"
        assert "Neo4j is not reachable at bolt://127.0.0.1:" in r.json()["detail"]
        assert elapsed < 10.0, (method, path, elapsed)  # no 30 s retry loop, even on a loaded machine
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
    assert sorted(t["name"] for t in core["tools"]) == sorted(
        t["name"] for t in syn.ALL_TOOLS if t["func_type"] == "core"
    )
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
        assert r.json() == {
            "error": "tool_not_found",
            "detail": "tool not found: 'no_such_tool'",
            "name": "no_such_tool",
        }
    assert client.get("/v1/tools/no_such_tool/dependencies").status_code == 404


def test_dependencies_depth_first(client):
    r = client.get(f"/v1/tools/{A}/dependencies")
    assert r.status_code == 200
    deps = r.json()["dependencies"]
    assert [d["name"] for d in deps] == [H, B, D, C, E]
    assert deps[2]["via"] == {
        "from": B,
        "type": "TOOL_INDIRECTLY_DEPENDS_ON",
        "parameter_name": None,
        "reason": f"needs {D}",
        "inferred": False,
        "confidence": None,
    }
    one = client.get(f"/v1/tools/{A}/dependencies", params={"depth": 1}).json()
    assert (one["depth"], [d["name"] for d in one["dependencies"]]) == (1, [H, B, C])
    assert client.get(f"/v1/tools/{A}/dependencies", params={"depth": 0}).json()["dependencies"] == []
    typed = client.get(f"/v1/tools/{A}/dependencies", params={"edge_type": "PARAMETER_DIRECTLY_DEPENDS_ON"})
    assert [d["name"] for d in typed.json()["dependencies"]] == [C]
    for bad in (6, -1):
        r = client.get(f"/v1/tools/{A}/dependencies", params={"depth": bad})
        assert r.status_code == 422 and r.json()["errors"][0]["field"] == "depth"


# -- writes ------------------------------------------------------------------------------------

NEW_TOOL = {
    "name": "plan_trip_itinerary",
    "description": "Plan a multi-city trip itinerary with flights.",
    "func_type": "regular",
    "parameters": [{"name": "cities", "type": "list", "required": True}],
    "depends_on": [
        {"name": A, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": "books legs"},
        {"name": F, "dependence_type": "PARAMETER_DEPENDS_ON", "parameter_name": "budget"},
    ],
    "custom_field": {"kept": True},
}


def test_put_creates_a_tool_with_its_edges(client, graph):
    r = client.put(f"/v1/tools/{NEW_TOOL['name']}", json=NEW_TOOL)
    assert r.status_code == 201, r.text
    assert r.json()["created"] is True and r.json()["tool"]["spec"] == NEW_TOOL
    assert r.json()["tool"]["catalog"] == "api"
    assert any("PARAMETER_DEPENDS_ON" in w for w in r.json()["warnings"])
    assert edges_of(graph, NEW_TOOL["name"]) == [
        ("PARAMETER_DIRECTLY_DEPENDS_ON", F, "budget"),
        ("TOOL_DIRECTLY_DEPENDS_ON", A, None),
    ]
    assert client.get(f"/v1/tools/{NEW_TOOL['name']}").json()["spec"] == NEW_TOOL
    # Embedded: its own document finds it, and retrieval expands its new edges.

    found = client.post(
        "/v1/retrieve", json={"query": tool_document(ToolSpec.model_validate(NEW_TOOL)), "k": 1, "K": 3}
    ).json()
    assert [t["name"] for t in found["tools"]] == [NEW_TOOL["name"], A, H]


def test_get_tool_shows_what_real_catalogs_carry(client, graph):
    """MCP title/annotations/outputSchema, OpenAPI http (method, path, tags, links ...), OpenAI strict: stored on
    the tool, shown at the top level of GET /v1/tools/{name} (null when absent) and as node properties."""
    tool = {
        "name": "list_playlists",
        "description": "Get the current user's playlists.",
        "title": "My playlists",
        "annotations": {"readOnlyHint": True, "destructiveHint": False},
        "output_schema": {
            "type": "object",
            "properties": {
                "items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}
            },
        },
        "http": {
            "method": "GET",
            "path": "/me/playlists",
            "operation_id": "list-playlists",
            "tags": ["Playlists"],
            "deprecated": False,
            "links": {},
            "response_status": "200",
        },
        "strict": True,
    }
    assert client.put("/v1/tools/list_playlists", json=tool).status_code == 201
    body = client.get("/v1/tools/list_playlists").json()
    assert body["spec"] == tool
    for key in ("title", "annotations", "output_schema", "http", "strict"):
        assert body[key] == tool[key]
    assert client.get(f"/v1/tools/{A}").json()["annotations"] is None
    node = graph.read(
        "MATCH (t:Tool {name: 'list_playlists'}) RETURN t.title AS title, t.read_only_hint AS ro, "
        "t.http_method AS method, t.http_path AS path, t.tags AS tags, t.has_output_schema AS out"
    )[0]
    assert dict(node) == {
        "title": "My playlists",
        "ro": True,
        "method": "GET",
        "path": "/me/playlists",
        "tags": ["Playlists"],
        "out": True,
    }
    bad = tool | {"annotations": {"readOnlyHint": "yes"}}
    r = client.put("/v1/tools/list_playlists", json=bad)
    assert r.status_code == 422 and "annotations.readOnlyHint" in r.text
    assert client.delete("/v1/tools/list_playlists").status_code == 204


def test_put_replaces_node_and_outgoing_edges_only(client, graph):
    incoming_before = graph.read("MATCH (s)-[r]->(:Tool {name: $n}) RETURN s.name AS s, type(r) AS t", n=A)
    changed = syn.raw(A) | {
        "description": "Reserve seats on a plane.",
        "func_type": "core",
        "depends_on": [{"name": G, "dependence_type": "TOOL_INDIRECTLY_DEPENDS_ON"}],
    }
    r = client.put(f"/v1/tools/{A}", json=changed)
    assert r.status_code == 200 and r.json()["created"] is False
    assert r.json()["tool"]["kind"] == "core" and r.json()["tool"]["catalog"] == "syn-seeds"
    assert edges_of(graph, A) == [("TOOL_INDIRECTLY_DEPENDS_ON", G, None)]
    labels = graph.read("MATCH (t:Tool {name: $n}) RETURN labels(t) AS l", n=A)[0]["l"]
    assert sorted(labels) == ["Core", "Tool"]
    incoming_after = graph.read("MATCH (s)-[r]->(:Tool {name: $n}) RETURN s.name AS s, type(r) AS t", n=A)
    assert sorted(map(tuple, incoming_after)) == sorted(map(tuple, incoming_before))
    assert [d["name"] for d in client.get(f"/v1/tools/{A}/dependencies").json()["dependencies"]] == [G]


def test_put_unknown_dependency_target_409_and_nothing_written(client, graph):
    """A well-formed tool that depends on a tool the graph does not have conflicts with the graph (409)."""
    before = graph_snapshot(graph)
    bad = syn.raw(A) | {
        "depends_on": [
            {"name": B, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"},
            {"name": "ghost_tool", "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"},
        ]
    }
    r = client.put(f"/v1/tools/{A}", json=bad)
    assert r.status_code == 409
    assert r.json()["error"] == "conflict"
    assert "'ghost_tool' is not a tool" in r.json()["detail"]
    assert r.json()["problems"] == [f"dangling dependency target: {A} -> ghost_tool ('ghost_tool' is not a tool)"]
    assert graph_snapshot(graph) == before


@pytest.mark.parametrize(
    "body, expected",
    [
        (syn.raw(A) | {"func_type": "utility"}, "func_type"),
        (syn.raw(A) | {"depends_on": [{"name": B, "dependence_type": "LIKES"}]}, "unknown dependence_type 'LIKES'"),
        (syn.raw(A) | {"description": 7}, "description"),
        ({"description": "no name"}, "name: Field required"),
    ],
)
def test_put_invalid_tool_422_names_the_problem(client, graph, body, expected):
    before = graph_snapshot(graph)
    r = client.put(f"/v1/tools/{A}", json=body)
    assert r.status_code == 422
    assert r.json()["error"] == "invalid_tool"
    assert expected in r.json()["detail"]
    assert graph_snapshot(graph) == before


@pytest.mark.parametrize(
    "body, expected",
    [
        (syn.raw(B), "body has 'get_user_profile', path has 'book_flight_ticket'"),
        (syn.raw(A) | {"depends_on": [{"name": A, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"}]}, "self-loop"),
    ],
)
def test_put_body_inconsistent_with_its_path_409(client, graph, body, expected):
    """RFC 9110 (PUT): a representation inconsistent with the target resource is a 409 Conflict."""
    before = graph_snapshot(graph)
    r = client.put(f"/v1/tools/{A}", json=body)
    assert (r.status_code, r.json()["error"]) == (409, "conflict")
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

    changed = syn.raw(F) | {
        "description": "changed",
        "depends_on": [
            {"name": E, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"},
            {"name": G, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"},
        ],
    }
    with TestClient(create_app(settings, graph=graph, embedder=DeletingEmbedder())) as c:
        r = c.put(f"/v1/tools/{F}", json=changed)
        assert (r.status_code, r.json()["error"]) == (409, "conflict"), r.text
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
    for headers, status, error in [
        ({}, 401, "unauthorized"),
        ({"Authorization": "Bearer wrong"}, 403, "forbidden"),
        ({"Authorization": "Basic czNjcmV0"}, 401, "unauthorized"),
    ]:
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
    env = neo4j_env(settings)
    runner = CliRunner()
    out = runner.invoke(
        cli,
        [
            "retrieve",
            syn.document(A),
            "--catalog",
            "syn-seeds",
            "--k",
            "2",
            "--K",
            "7",
            "--edge-type",
            "TOOL_DIRECTLY_DEPENDS_ON",
            "--edge-type",
            "PARAMETER_DIRECTLY_DEPENDS_ON",
            "--json",
        ],
        env=env,
    )
    assert out.exit_code == 0, out.output
    from_cli = json.loads(out.output)
    from_api = client.post(
        "/v1/retrieve",
        json={
            "query": syn.document(A),
            "catalog": "syn-seeds",
            "k": 2,
            "K": 7,
            "edge_types": ["TOOL_DIRECTLY_DEPENDS_ON", "PARAMETER_DIRECTLY_DEPENDS_ON"],
        },
    ).json()
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


# -- issue #8: what the fuzzer and the attacker found ----------------------------------------------


def test_integer_parameters_are_bounded(client):
    """Item 1: offset=2147483647 was a 500 (Neo4j's 32-bit list index); every integer in the schema is
    bounded on both sides, and the server refuses what is outside with 422."""
    r = client.get("/v1/tools", params={"offset": 2147483647, "limit": 1})
    assert (r.status_code, r.json()["errors"][0]["field"]) == (422, "offset")
    assert client.get("/v1/tools", params={"offset": 1_000_000, "limit": 1000}).json()["tools"] == []
    schema = client.get("/openapi.json").json()
    unbounded = []

    def walk(node, where):
        if isinstance(node, dict):
            if node.get("type") == "integer" and not (
                {"minimum", "exclusiveMinimum"} & set(node) and {"maximum", "exclusiveMaximum"} & set(node)
            ):
                unbounded.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            walk(operation.get("parameters", []), f"{method.upper()} {path}")
    for name in ("RetrievalRequest", "MergeRequest", "InferRequest"):
        walk(schema["components"]["schemas"][name], name)
    assert unbounded == []


@pytest.mark.parametrize("mode", ["fulltext", "hybrid", "rrf"])
def test_a_query_of_257_distinct_words_works_in_every_fulltext_mode(client, mode):
    """Item 2: 257 distinct words made Lucene fail (`maxClauseCount is set to 1024`, a 500); the terms are
    folded below the limit (first occurrences kept) and, in hybrid/rrf, the vector leg still runs.
    A's distinctive words come first, so they survive the fold and A is found."""

    filler = [f"w{i}x" for i in range(257)]
    assert len(filler) > LUCENE_MAX_TOKENS  # the fold really cuts: the last filler words are dropped
    query = "airplane ticket airports traveller " + " ".join(filler)
    assert filler[-1] not in lucene_query(query) and "airplane ticket airports traveller" in lucene_query(query)
    r = client.post("/v1/retrieve", json={"query": query, "mode": mode, "rerank": "none", "k": 2})
    assert r.status_code == 200, r.text
    body = r.json()
    # 261 words: what is searched is bounded (issue 19 item 6); A's words lead, so they are kept
    assert [s["name"] for s in body["stages"]][:2] == ["clean", "search"]
    assert A in [t["name"] for t in body["tools"] if t["role"] == "seed"]
    if mode != "fulltext":
        assert body["timing_ms"]["embed"] > 0
        assert [s for s in body["stages"] if s["fallback"]] == []


NAMES = [
    "x'}) DETACH DELETE n //",
    "a/b",
    "x/dependencies",
    "with space",
    'quote"d',
    "ünïcödé 工具 🛠",
    "50%25 off",
    "..dots",
    "?q=1&r#frag",
]


@pytest.mark.parametrize("name", NAMES)
def test_names_with_slash_space_quote_and_unicode_work_on_every_route(client, graph, name):
    """Item 6: a name with '/' answered 307 -> 404 on GET/PUT/DELETE and /dependencies. '/' travels as %2F
    (one path segment each); `x/dependencies` is that tool, not the dependencies of `x`."""
    path = f"/v1/tools/{quote(name, safe='')}"
    body = {
        "name": name,
        "description": "A tool with an awkward name.",
        "func_type": "regular",
        "depends_on": [{"name": B, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": "needs it"}],
    }
    created = client.put(path, json=body)
    assert created.status_code == 201, created.text
    assert created.json()["tool"]["name"] == name
    got = client.get(path)
    assert (got.status_code, got.json()["name"], got.json()["spec"]) == (200, name, body)
    deps = client.get(f"{path}/dependencies")
    assert deps.status_code == 200 and deps.json()["name"] == name and deps.json()["dependencies"][0]["name"] == B
    assert name in [t["name"] for t in client.get("/v1/tools", params={"catalog": "api"}).json()["tools"]]
    assert client.put(path, json=body).status_code == 200
    assert client.delete(path).status_code == 204
    assert client.get(path).status_code == 404
    assert graph.read("MATCH (t:Tool {name: $n}) RETURN count(t) AS n", n=name)[0]["n"] == 0


def test_control_characters_in_names_are_rejected(client, graph):
    """Item 13: a NUL in a tool name was accepted. Any control character is refused, in the body (422
    invalid_tool, position named) and in the path (422, the pattern the schema documents)."""
    before = graph_snapshot(graph)
    for bad in ["nul\x00name", "tab\tname", "line\nname", "c1\x85name", "del\x7fname"]:
        r = client.put(f"/v1/tools/{quote(bad, safe='')}", json={"name": bad, "description": "x"})
        assert (r.status_code, r.json()["error"]) == (422, "validation_error"), r.text
        dep = syn.raw(A) | {"depends_on": [{"name": bad, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"}]}
        r = client.put(f"/v1/tools/{A}", json=dep)
        assert (r.status_code, r.json()["error"]) == (422, "invalid_tool") and "control character" in r.text
    r = client.put("/v1/tools/nul%00name", json={"name": "nul\x00name"})
    assert r.status_code == 422
    assert graph_snapshot(graph) == before


def test_body_size_and_field_lengths_are_limited_and_never_echoed(client, graph):
    """Item 9: a 10 MB PUT was stored and served back. The body limit is 413 (before reading, from
    Content-Length, and while reading a chunked body); name and description lengths are 422; no error
    echoes the input at length."""
    before = graph_snapshot(graph)
    huge = json.dumps(syn.raw(A) | {"description": "x" * (10 * 1024 * 1024)})
    r = client.put(f"/v1/tools/{A}", content=huge, headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (413, "payload_too_large")
    assert "1,048,576 bytes" in r.json()["detail"]

    def chunks():
        for i in range(0, len(huge), 65536):
            yield huge[i : i + 65536].encode()

    r = client.put(f"/v1/tools/{A}", content=chunks(), headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["error"]) == (413, "payload_too_large")
    long_name = "n" * 201
    r = client.put(f"/v1/tools/{long_name}", json={"name": long_name})
    assert (r.status_code, r.json()["errors"][0]["field"]) == (422, "name")
    r = client.put(f"/v1/tools/{A}", json=syn.raw(A) | {"description": "d" * 10_001})
    assert (r.status_code, r.json()["error"]) == (422, "invalid_tool") and "description" in r.json()["detail"]
    big_field = "k" * 900_000
    for r in (
        client.post("/v1/retrieve", json={"query": "x", big_field: 1}),
        client.put(f"/v1/tools/{A}", json=syn.raw(A) | {"depends_on": [{"name": B, "dependence_type": big_field}]}),
    ):
        assert r.status_code == 422 and len(r.content) < 4000, (r.status_code, len(r.content))
    r = client.post("/v1/retrieve", json={"query": "q" * 1_100_000})  # a query longer than the body limit
    assert (r.status_code, r.json()["error"]) == (413, "payload_too_large") and len(r.content) < 4000
    assert graph_snapshot(graph) == before


def test_a_whole_user_message_with_a_pasted_image_is_retrieved_on_its_words(client):
    """Issue 19 item 6: a real ~18,000-character task with a base64 image got a 422."""

    image = "data:image/jpeg;base64," + base64.b64encode(bytes(range(256)) * 60).decode()
    message = "Book a flight ticket from Paris to Rome for my trip next week, here is my passport scan: " + image
    assert len(message) > 18_000
    r = client.post("/v1/retrieve", json={"query": message, "catalog": "syn-seeds", "k": 1})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["tools"][0]["name"] == A
    clean = [s for s in body["stages"] if s["name"] == "clean"]
    assert len(clean) == 1 and "1 data URI(s)" in clean[0]["detail"]
    short = client.post(
        "/v1/retrieve",
        json={"query": "Book a flight ticket from Paris to Rome for my trip next week", "catalog": "syn-seeds", "k": 1},
    ).json()
    assert not any(s["name"] == "clean" for s in short["stages"])


def test_every_error_is_the_documented_error_model(client):
    """Item 10: the 422 body contradicted the schema (FastAPI's HTTPValidationError) on four routes, and
    unparsable JSON gave an undocumented 400. Every 4xx/5xx in the schema is the one `Error` model, and
    the bodies the server sends validate against it."""

    schema = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if int(status) >= 400:
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    assert ref == "#/components/schemas/Error", (method, path, status)
            if (
                "requestBody" in operation
                and "application/json" in operation["requestBody"]["content"]
                and path != "/v1/catalogs/{name}/import"
            ):
                assert "400" in operation["responses"], (method, path)
    error_schema = {**schema["components"]["schemas"]["Error"], "$defs": schema["components"]["schemas"]}
    validator = Draft202012Validator(json.loads(json.dumps(error_schema).replace("#/components/schemas/", "#/$defs/")))
    bad_json = client.post("/v1/retrieve", content=b'{"query": ', headers={"content-type": "application/json"})
    not_utf8 = client.post("/v1/retrieve", content=b'{"query": "\xff"}', headers={"content-type": "application/json"})
    surrogate = client.post(
        "/v1/retrieve", content=b'{"query": "a \\ud800 b"}', headers={"content-type": "application/json"}
    )
    assert [r.status_code for r in (bad_json, not_utf8, surrogate)] == [400, 400, 400]
    assert {r.json()["error"] for r in (bad_json, not_utf8, surrogate)} == {"invalid_json"}
    answers = [
        bad_json,
        not_utf8,
        surrogate,
        client.get("/v1/tools", params={"offset": -1}),
        client.get("/v1/merges/plan", params={"top_k": 0}),
        client.get(f"/v1/tools/{A}/dependencies", params={"edge_type": "LIKES"}),
        client.post("/v1/merges", json={"theta": "high"}),
        client.get("/v1/tools/no_such_tool"),
        client.post("/v1/retrieve", json={"query": "x", "stages": ["teleport"]}),
        client.post("/v1/retrieve", json={"query": "x", "k": True}),
        client.post("/v1/retrieve", json={"query": "x", "prefer_direct": 0}),
        client.request("TRACE", f"/v1/tools/{A}"),
    ]
    for r in answers:
        assert r.status_code >= 400
        assert list(validator.iter_errors(r.json())) == [], r.text
    assert [r.status_code for r in answers[3:]] == [422, 422, 422, 422, 404, 422, 422, 422, 405]
    assert answers[-1].headers["allow"] == "DELETE, GET, HEAD, PUT"
