"""Dependency inference: the offline rules and learned patterns, the LLM judge (fake server), apply /
list / undo runs, the CLI flow on an imported OpenAPI spec, and the REST endpoints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchmarks import DATA
from benchmarks.deps_eval import edge_scores, hand_edges, load_split
from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.model import Examples, LabelledEdge, ProposedEdge, ToolInfo, infer_offline
from kg_tools.loaders import openapi
from tests.cli_process import neo4j_env
from tests.conftest import graph_snapshot

FIXTURES = Path(__file__).parent / "fixtures"
SHOP = FIXTURES / "shop_openapi.yaml"


def shop_tools() -> list[ToolInfo]:
    return [ToolInfo.from_raw(t) for t in openapi.load(SHOP).tools]


def edges_by_pair(edges):
    return {(e.source, e.target): e for e in edges}


# -- the offline method ------------------------------------------------------------------------


@pytest.mark.integration
def test_rules_find_parameter_providers_without_examples(embedder):
    edges = edges_by_pair(infer_offline(shop_tools(), embedder, min_confidence=0.2))
    token = edges[("add-to-cart", "login_user")]
    assert (token.type, token.parameter_name, token.method) == (
        "PARAMETER_DIRECTLY_DEPENDS_ON",
        "X-Session-Token",
        "offline-rules",
    )
    assert "session token" in token.reason
    product = edges[("add-to-cart", "searchProducts")]
    assert product.parameter_name == "product_id" and product.confidence >= 0.8
    assert edges[("get_products_product_id", "searchProducts")].parameter_name == "product_id"
    # a tool that takes the value itself is a consumer, not a provider
    assert ("add-to-cart", "get_products_product_id") not in edges
    assert not any(s == "login_user" for s, _ in edges)  # login needs nothing here
    assert set(edges) == {
        ("add-to-cart", "login_user"),
        ("add-to-cart", "searchProducts"),
        ("get_products_product_id", "searchProducts"),
    }


def tool(name, description, params=(), kind="regular"):
    return {
        "name": name,
        "description": description,
        "func_type": kind,
        "parameters": [
            {"name": p, "type": "string", "description": p.replace("_", " "), "required": True} for p in params
        ],
    }


@pytest.mark.integration
def test_getter_setter_pairs_and_served_parameters(embedder):
    tools = [
        ToolInfo.from_raw(t)
        for t in (
            tool("get_wifi_status", "Returns whether Wi-Fi is on.", kind="core"),
            tool("set_wifi_status", "Turns Wi-Fi on or off.", ["on"], kind="core"),
            tool("get_country_code", "Country code for a country name.", ["country_name"], kind="core"),
            tool("get_city_code", "City code of a city in a country.", ["city_name", "country_code"], kind="core"),
        )
    ]
    edges = edges_by_pair(infer_offline(tools, embedder))
    assert edges[("set_wifi_status", "get_wifi_status")].type == "TOOL_INDIRECTLY_DEPENDS_ON"
    assert edges[("get_wifi_status", "set_wifi_status")].type == "TOOL_INDIRECTLY_DEPENDS_ON"
    served = edges[("get_city_code", "get_country_code")]
    assert (served.type, served.parameter_name) == ("PARAMETER_DIRECTLY_DEPENDS_ON", "country_code")
    assert ("get_country_code", "get_city_code") not in edges


@pytest.mark.integration
def test_patterns_learned_from_labelled_edges(embedder):
    """Labelled tools of two shops depend on their own login and on the core network check; an
    unlabelled tool of a third shop gets its own shop's login (name prefix translated) and the core tool."""
    raws = [
        tool("check_network", "Checks that the device is online.", kind="core"),
        tool("get_current_date", "Today's date.", kind="core"),
    ]
    labelled = []
    for shop in ("acme", "zenith", "orbit", "nova"):
        raws += [
            tool(f"{shop}_login", f"Log in to the {shop} store."),
            tool(f"{shop}_view_orders", f"List your past {shop} store orders."),
            tool(f"{shop}_cancel_order", f"Cancel an open {shop} store order.", ["order_number"]),
        ]
        if shop != "nova":
            for action in ("view_orders", "cancel_order"):
                labelled += [
                    LabelledEdge(f"{shop}_{action}", f"{shop}_login", "TOOL_DIRECTLY_DEPENDS_ON"),
                    LabelledEdge(f"{shop}_{action}", "check_network", "TOOL_DIRECTLY_DEPENDS_ON"),
                ]
    tools = [ToolInfo.from_raw(t) for t in raws]
    examples = Examples(labelled, {e.source for e in labelled} | {f"{s}_login" for s in ("acme", "zenith", "orbit")})
    edges = edges_by_pair(infer_offline(tools, embedder, examples, sources={"nova_cancel_order", "nova_view_orders"}))
    for source in ("nova_cancel_order", "nova_view_orders"):
        login = edges[(source, "nova_login")]
        assert login.method == "offline-learned" and login.type == "TOOL_DIRECTLY_DEPENDS_ON"
        assert "similar labelled tools" in login.reason
        assert (source, "check_network") in edges
        assert (source, "acme_login") not in edges and (source, "get_current_date") not in edges


def test_edge_scores_typed_and_untyped():
    gold = [
        LabelledEdge("a", "b", "TOOL_DIRECTLY_DEPENDS_ON"),
        LabelledEdge("a", "c", "PARAMETER_DIRECTLY_DEPENDS_ON"),
        LabelledEdge("x", "y", "TOOL_DIRECTLY_DEPENDS_ON"),
    ]
    predicted = [
        ProposedEdge("a", "b", "TOOL_INDIRECTLY_DEPENDS_ON", 0.9, "m", "r"),
        ProposedEdge("a", "c", "PARAMETER_DIRECTLY_DEPENDS_ON", 0.9, "m", "r"),
        ProposedEdge("a", "d", "TOOL_DIRECTLY_DEPENDS_ON", 0.9, "m", "r"),
        ProposedEdge("x", "z", "TOOL_DIRECTLY_DEPENDS_ON", 0.9, "m", "r"),
    ]
    s = edge_scores(predicted, gold, {"a"})  # only edges whose source is in the half
    assert (s["edge_precision"], s["edge_recall"]) == (round(2 / 3, 4), 1.0)
    assert (s["edge_precision_typed"], s["edge_recall_typed"]) == (round(1 / 3, 4), 0.5)
    assert s["edge_f1"] == round(2 * (2 / 3) / (2 / 3 + 1), 4)


def test_split_file_and_hand_edges():
    halves = load_split()
    assert halves["dev"] and halves["test"] and not halves["dev"] & halves["test"]
    edges = hand_edges([{"name": "a", "depends_on": [{"name": "b", "dependence_type": "PARAMETER_DEPENDS_ON"}]}])
    assert edges == [LabelledEdge("a", "b", "PARAMETER_DIRECTLY_DEPENDS_ON", None)]


# -- the LLM method (fake OpenAI-compatible server) ----------------------------------------------


@pytest.mark.integration
def test_llm_judge_answers_validation_and_fallback(embedder, llm_settings, fake_llm):
    from kg_tools.llm import LLMClient

    tools = shop_tools()

    def answer(request):
        prompt = fake_llm.user_prompt(request)
        if "name: add-to-cart" in prompt:
            return json.dumps(
                {
                    "dependencies": [
                        {
                            "name": "login_user",
                            "type": "PARAMETER_DIRECTLY_DEPENDS_ON",
                            "parameter_name": "X-Session-Token",
                            "reason": "the session token comes from logging in",
                            "confidence": 0.95,
                        },
                        {
                            "name": "searchProducts",
                            "type": "PARAMETER_DIRECTLY_DEPENDS_ON",
                            "parameter_name": "no_such",
                            "reason": "finds the product",
                            "confidence": 0.7,
                        },
                    ]
                }
            )
        if "name: searchProducts" in prompt:
            return json.dumps(
                {
                    "dependencies": [
                        {
                            "name": "not_a_candidate",
                            "type": "TOOL_DIRECTLY_DEPENDS_ON",
                            "reason": "x",
                            "confidence": 0.9,
                        }
                    ]
                }
            )
        return json.dumps({"dependencies": []})

    fake_llm.script(answer)
    result = infer_catalog(tools, embedder, Examples([]), llm=LLMClient(llm_settings))
    edges = edges_by_pair(result.edges)
    assert edges[("add-to-cart", "login_user")].method == "llm"
    assert edges[("add-to-cart", "login_user")].reason == "the session token comes from logging in"
    # a parameter edge naming no real parameter is kept as a tool edge, never with an invented parameter
    assert (edges[("add-to-cart", "searchProducts")].type, edges[("add-to-cart", "searchProducts")].parameter_name) == (
        "TOOL_DIRECTLY_DEPENDS_ON",
        None,
    )
    # searchProducts: an answer outside the candidates is invalid twice -> that tool falls back offline
    assert result.method == "llm+offline (1 tools offline)"
    assert any(n.startswith("searchProducts: offline fallback") for n in result.notes)
    assert result.llm_calls == 4

    fake_llm.script(lambda request: {"status": 500})
    down = infer_catalog(tools, embedder, Examples([]), llm=LLMClient(llm_settings))
    assert down.llm_calls == 3  # then it stops asking
    offline = infer_catalog(tools, embedder, Examples([]))  # what the run gives without an LLM
    assert edges_by_pair(down.edges).keys() == edges_by_pair(offline.edges).keys()
    assert all(e.method in ("description", "output-schema", "path-template") for e in down.edges)  # producer edges


# -- the graph: apply, hand-written edges untouched, undo, the CLI flow --------------------------


@pytest.fixture
def cli_env(settings, empty_graph):
    return neo4j_env(settings, OPENAI_BASE_URL="")


def cli(env, *args):
    from kg_tools.cli import cli as group

    result = CliRunner().invoke(group, list(args), env=env)
    assert result.exit_code == 0, result.output
    return result.output


def dependency_edges(graph):
    return graph.read(
        "MATCH (a:Tool)-[r]->(b:Tool) WHERE type(r) ENDS WITH '_DEPENDS_ON' "
        "RETURN a.name AS source, b.name AS target, type(r) AS type, properties(r) AS props "
        "ORDER BY source, target"
    )


@pytest.mark.integration
def test_openapi_to_inferred_dependencies_to_retrieve(graph, cli_env):
    """The whole flow: a spec without dependencies -> deps infer --apply -> retrieve shows the
    inferred dependency and its reason; undo removes exactly that run."""
    cli(cli_env, "load", "openapi", str(SHOP), "--catalog", "shop")
    assert dependency_edges(graph) == []
    before = graph_snapshot(graph)
    dry = cli(cli_env, "deps", "infer", "--catalog", "shop")
    assert "add-to-cart -> login_user PARAMETER_DIRECTLY_DEPENDS_ON [X-Session-Token]" in dry
    assert "dry run" in dry and graph_snapshot(graph) == before

    applied = cli(cli_env, "deps", "infer", "--catalog", "shop", "--apply")
    run = next(line.split()[1].rstrip(":") for line in applied.splitlines() if line.startswith("applied "))
    edges = {(e["source"], e["target"]): e["props"] for e in dependency_edges(graph)}
    token = edges[("add-to-cart", "login_user")]
    assert token["inferred"] is True and token["run"] == run and token["method"] == "description"
    assert token["parameter_name"] == "X-Session-Token" and 0 < token["confidence"] <= 1 and token["reason"]

    out = json.loads(
        cli(cli_env, "retrieve", "put a product into my shopping cart", "--catalog", "shop", "--k", "1", "--json")
    )
    assert out["tools"][0]["name"] == "add-to-cart"
    login = next(t for t in out["tools"] if t["name"] == "login_user")
    assert login["role"] == "dependency"
    assert login["via"] == [
        {
            "from": "add-to-cart",
            "type": "PARAMETER_DIRECTLY_DEPENDS_ON",
            "parameter_name": "X-Session-Token",
            "reason": token["reason"],
            "inferred": True,
            "confidence": token["confidence"],
        }
    ]

    again = cli(cli_env, "deps", "infer", "--catalog", "shop", "--apply")  # everything already connected
    assert "nothing to apply" in again
    assert run in cli(cli_env, "deps", "list")
    assert f"undid {run}: {len(edges)} inferred edges removed" in cli(cli_env, "deps", "undo", run)
    assert graph_snapshot(graph) == before


@pytest.mark.integration
def test_hand_written_edges_are_never_touched(graph, embedder, settings, cli_env):
    from kg_tools.deps import apply_results, infer_graph, undo_run
    from kg_tools.ingest import load_catalog

    raws = openapi.load(SHOP).tools
    cart = next(t for t in raws if t["name"] == "add-to-cart")
    cart["depends_on"] = [{"name": "login_user", "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": "by hand"}]
    load_catalog(graph, embedder, raws, "shop", log=lambda *_: None)
    hand = dependency_edges(graph)
    results = infer_graph(graph, embedder, settings, catalog="shop", method="offline")
    assert ("add-to-cart", "login_user") not in {(e.source, e.target) for e in results[0].edges}
    assert results[0].labelled_edges == 1
    [run] = apply_results(graph, results, 0.2)
    after = dependency_edges(graph)
    assert [e for e in after if not e["props"].get("inferred")] == hand
    assert undo_run(graph, run["run"])["removed"] == run["edges"] > 0
    assert dependency_edges(graph) == hand


# -- REST ---------------------------------------------------------------------------------------


@pytest.fixture
def api(settings, graph, embedder, empty_graph):
    from fastapi.testclient import TestClient

    from kg_tools.api.app import create_app

    with TestClient(create_app(settings.model_copy(update={"api_key": "k3y"}), graph=graph, embedder=embedder)) as c:
        yield c


@pytest.mark.integration
def test_rest_import_and_infer(api, graph):
    auth = {"Authorization": "Bearer k3y"}
    spec = SHOP.read_text()
    assert api.post("/v1/catalogs/shop/import", content=spec).status_code == 401
    first = api.post("/v1/catalogs/shop/import", content=spec, headers=auth | {"content-type": "application/yaml"})
    assert first.status_code == 200, first.text
    assert first.json() | {"embed_seconds": 0, "write_seconds": 0} == {
        "catalog": "shop",
        "tools": 4,
        "edges": 0,
        "embedded": 4,
        "embed_seconds": 0,
        "write_seconds": 0,
        "format": "openapi",
        "warnings": [],
    }
    before = graph_snapshot(graph)
    assert api.post("/v1/catalogs/shop/import", content=spec, headers=auth).json()["embedded"] == 0
    assert graph_snapshot(graph) == before

    mcp_list = {
        "tools": [
            {
                "name": "create_note",
                "description": "Create a note.",
                "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}},
            }
        ]
    }
    assert api.post("/v1/catalogs/notes/import", json=mcp_list, headers=auth).json()["format"] == "mcp"
    openai_list = json.loads((FIXTURES / "openai_tools.json").read_text())
    assert api.post("/v1/catalogs/assistant/import", json=openai_list, headers=auth).json()["tools"] == 3
    bad = api.post("/v1/catalogs/x/import", content='{"openapi": "3.0.0", "paths": {}}', headers=auth)
    assert bad.status_code == 422 and bad.json()["error"] == "invalid_tool" and "no operations" in bad.json()["detail"]
    # YAML is documented like JSON (a list or a mapping): a scalar document is refused, not stored
    scalar = api.post("/v1/catalogs/x/import", content="0\n", headers=auth | {"content-type": "application/yaml"})
    assert scalar.status_code == 422 and scalar.json()["error"] == "invalid_tool", scalar.text
    content = api.get("/openapi.json").json()["paths"]["/v1/catalogs/{name}/import"]["post"]["requestBody"]["content"]
    assert (
        content["application/yaml"]["schema"]
        == content["application/json"]["schema"]
        == {"anyOf": [{"type": "array"}, {"type": "object"}]}
    )

    assert api.post("/v1/deps/infer", json={"catalog": "shop"}).status_code == 401
    dry = api.post("/v1/deps/infer", json={"catalog": "shop"}, headers=auth).json()
    proposed = dry["results"][0]["proposed"]
    assert dry["runs"] == [] and proposed >= 1 and dry["results"][0]["abstained"].keys() >= {"below_threshold"}
    assert {"source", "target", "type", "parameter_name", "confidence", "method", "reason", "ord"} == set(
        dry["results"][0]["edges"][0]
    )
    applied = api.post("/v1/deps/infer", json={"catalog": "shop", "apply": True}, headers=auth).json()
    run = applied["runs"][0]["run"]
    assert applied["runs"][0]["edges"] == proposed
    assert [r["id"] for r in api.get("/v1/deps/runs").json()["runs"]] == [run]
    missing = api.post("/v1/deps/infer", json={"catalog": "nope"}, headers=auth)
    assert missing.status_code == 404 and missing.json()["error"] == "catalog_not_found"
    assert api.post("/v1/deps/infer", json={"min_confidence": 2}, headers=auth).json()["error"] == "validation_error"
    assert api.delete(f"/v1/deps/runs/{run}", headers=auth).json() == {"run": run, "removed": proposed}
    assert api.delete(f"/v1/deps/runs/{run}", headers=auth).json()["error"] == "run_not_found"


# -- eval deps -----------------------------------------------------------------------------------


@pytest.mark.integration
def test_eval_deps_reports_edges_and_retrieval_and_restores_the_hand_edges(graph, cli_env, datasets, tmp_path):
    """`eval deps` on ToolSandbox (small): edge precision/recall/F1 (untyped and typed), the retrieval rows
    (vector, grtf over hand edges, grtf_inferred over inferred edges), a plot; afterwards the graph holds
    the hand-written catalog again (no inferred edge, no run)."""
    out = tmp_path / "deps.json"
    cli(
        cli_env | {"KG_TOOLS_DATASETS": str(datasets)},
        "eval",
        "deps",
        "--dataset",
        "toolsandbox",
        "--limit",
        "5",
        "--json",
        str(out),
    )
    result = json.loads(out.read_text())
    keys = ("edge_precision", "edge_recall", "edge_f1", "edge_precision_typed", "edge_recall_typed", "edge_f1_typed")
    assert all(0.0 <= result[k] <= 1.0 for k in keys)
    assert result["gold"] == 35 and result["config"]["queries"] == 5 and result["config"]["labelled_edges"] == 0
    rows = {r["method"]: r for r in result["rows"]}
    assert set(rows) == {"vector", "grtf_paper", "grtf", "grtf_paper_inferred", "grtf_inferred"}
    assert all(0.0 <= r["mAP@10"] <= 1.0 for r in rows.values())
    assert out.with_suffix(".png").stat().st_size > 0

    hand = dependency_edges(graph)
    assert len(hand) == 52 and not any(e["props"].get("inferred") for e in hand)
    assert graph.read("MATCH (r:DependencyRun) RETURN count(r) AS n")[0]["n"] == 0


# -- producer -> consumer inference on real specs (kg_tools/deps/producers.py) --------------------

REAL = DATA / "real"
SPOTIFY = REAL / "openapi" / "spotify.yml"


def spotify_tools() -> list[ToolInfo]:
    return [ToolInfo.from_raw(t) for t in openapi.load(SPOTIFY).tools]


def test_openapi_import_keeps_responses_links_tags_and_deprecation(tmp_path):
    """2xx JSON response schema ($refs resolved, component names as titles), links, tags, deprecated, operationId."""
    tools = {t["name"]: t for t in openapi.load(SPOTIFY).tools}
    mine = tools["get-a-list-of-current-users-playlists"]
    assert mine["http"] | {} == {
        "method": "GET",
        "path": "/me/playlists",
        "operation_id": "get-a-list-of-current-users-playlists",
        "tags": ["Playlists", "Library"],
        "response_status": "200",
    }
    assert mine["output_schema"]["title"] == "PagingPlaylistObject" and "$ref" not in json.dumps(mine["output_schema"])
    assert tools["add-tracks-to-playlist"]["http"]["deprecated"] is True
    spec = {
        "openapi": "3.0.3",
        "paths": {
            "/users": {
                "post": {
                    "operationId": "createUser",
                    "responses": {
                        "201": {
                            "description": "created",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}},
                            "links": {
                                "GetUser": {"operationId": "getUser", "parameters": {"userId": "$response.body#/id"}}
                            },
                        }
                    },
                }
            },
            "/users/{userId}": {
                "get": {
                    "operationId": "getUser",
                    "parameters": [{"name": "userId", "in": "path", "required": True, "schema": {"type": "string"}}],
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}},
                        }
                    },
                }
            },
        },
        "components": {
            "schemas": {
                "User": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}, "friend": {"$ref": "#/components/schemas/User"}},
                }
            }
        },
    }  # a $ref cycle
    path = tmp_path / "users.json"
    path.write_text(json.dumps(spec))
    users = {t["name"]: t for t in openapi.load(path).tools}
    assert users["createUser"]["http"]["links"] == {
        "GetUser": {"operationId": "getUser", "parameters": {"userId": "$response.body#/id"}}
    }
    assert users["getUser"]["output_schema"]["properties"]["friend"]["title"] == "User"  # the cycle is cut
    edges = infer_catalog([ToolInfo.from_raw(t) for t in users.values()], None, Examples([])).edges
    [link] = [e for e in edges if e.method == "openapi-links"]
    assert (link.source, link.target, link.parameter_name, link.confidence) == ("getUser", "createUser", "userId", 1.0)
    assert "OpenAPI link GetUser" in link.reason


def test_openapi_with_too_many_operations_is_refused(tmp_path):
    from kg_tools.errors import CatalogError

    path = tmp_path / "huge.json"
    path.write_text(json.dumps({"openapi": "3.0.3", "paths": {f"/r{i}": {"get": {}} for i in range(10_001)}}))
    with pytest.raises(CatalogError, match="10,001 operations; at most 5,000"):
        openapi.load(path)


def test_producers_of_a_real_spec_without_annotations():
    """Spotify: each parameter served by a tool whose output holds the same thing, lists/search over create."""
    edges = {(e.source, e.target): e for e in infer_catalog(spotify_tools(), None, Examples([])).edges}
    playlists = edges[("add-items-to-playlist", "get-a-list-of-current-users-playlists")]
    assert (playlists.type, playlists.parameter_name, playlists.method) == (
        "PARAMETER_DIRECTLY_DEPENDS_ON",
        "playlist_id",
        "output-schema",
    )
    assert playlists.reason == (
        "`playlist_id` ← `items[].id` of get-a-list-of-current-users-playlists (the user's own, which a change addresses)"
    )
    assert edges[("add-items-to-playlist", "search")].parameter_name == "uris"
    assert (
        edges[("set-volume-for-users-playback", "get-a-users-available-devices")].reason
        == "`device_id` ← `devices[].id` of get-a-users-available-devices"
    )
    assert not any(t == "create-playlist" for _, t in edges)  # a create is not where ids of existing things come from
    assert ("remove-tracks-playlist", "get-track") not in edges


def test_producers_from_descriptions_of_mcp_tools():
    """No output schema: what the name and description say the tool returns ("Returns a list of issues")."""
    from kg_tools.loaders.document import mcp_entries

    doc = json.loads((REAL / "mcp" / "github.json").read_text())
    edges = {
        (e.source, e.target): e
        for e in infer_catalog([ToolInfo.from_raw(t) for t in mcp_entries(doc)], None, Examples([])).edges
    }
    issue = edges[("get_issue", "list_issues")]
    assert (issue.parameter_name, issue.method) == ("issue_number", "description")
    assert ("get_issue", "search_repositories") not in edges  # owner/repo are what a person gives


def test_deps_infer_is_fast_on_thousands_of_tools():
    """Candidates come from an index (resource -> producers), not all pairs: 2,500+ tools in seconds."""
    import time

    from kg_tools.deps.infer import structural_edges

    base = openapi.load(SPOTIFY).tools + openapi.load(REAL / "openapi" / "discord.json").tools
    tools = []
    for copy in range(14):  # 2,660 tools: renamed copies (a copy's tools refer to each other only by resource)
        for t in base:
            tools.append(ToolInfo.from_raw(t | {"name": f"{t['name']}-{copy}"}))
    start = time.process_time()  # CPU time: the shared test machine's load does not count
    edges = structural_edges(tools, sources=None, min_confidence=0.2)
    assert len(tools) > 2500 and edges
    assert time.process_time() - start < 60


@pytest.mark.integration
def test_an_unannotated_real_spec_to_inferred_dependencies_to_retrieve(graph, cli_env):
    """The flow from a fresh clone: `load openapi` a spec nobody annotated (Spotify, MIT, see
    benchmarks/data/real/sources.json) -> `deps infer --apply` -> `retrieve` returns the add operation
    with the playlist-listing and search operations as its dependencies, each with its reason."""
    cli(cli_env, "load", "openapi", str(SPOTIFY), "--catalog", "spotify")
    applied = cli(cli_env, "deps", "infer", "--catalog", "spotify", "--apply")
    assert "applied deps-" in applied
    out = json.loads(
        cli(cli_env, "retrieve", "add this song to my road-trip playlist", "--catalog", "spotify", "--json")
    )
    names = [t["name"] for t in out["tools"]]
    # the add operation: add-items-to-playlist or its deprecated twin add-tracks-to-playlist (same summary)
    add = min(names.index(n) for n in ("add-items-to-playlist", "add-tracks-to-playlist") if n in names)
    assert out["tools"][add]["role"] == "seed"
    via = {t["name"]: t["via"] for t in out["tools"] if t["role"] == "dependency"}
    for provider, parameter in (("get-a-list-of-current-users-playlists", "playlist_id"), ("search", "uris")):
        assert names.index(provider) > add
        [edge] = [v for v in via[provider] if v["from"] == names[add]]
        assert edge["type"] == "PARAMETER_DIRECTLY_DEPENDS_ON" and edge["parameter_name"] == parameter
        assert edge["reason"].startswith(f"`{parameter}` ← ") and provider in edge["reason"]


@pytest.mark.integration
def test_eval_deps_on_any_catalog_against_gold_edges(graph, cli_env, tmp_path):
    """`eval deps --catalog-file FILE --gold FILE`: precision/recall/F1 untyped and typed, per method; the
    catalog is loaded under its own name and removed afterwards; other catalogs are not touched."""
    cli(cli_env, "load", "openapi", str(SHOP), "--catalog", "shop")
    before = graph_snapshot(graph)
    out = tmp_path / "petstore.json"
    printed = cli(
        cli_env,
        "eval",
        "deps",
        "--catalog-file",
        str(REAL / "openapi" / "petstore.yaml"),
        "--gold",
        str(REAL / "gold_edges" / "petstore.json"),
        "--json",
        str(out),
    )
    result = json.loads(out.read_text())
    assert result["catalog"] == "petstore" and result["gold"] == 15 and "untyped  precision" in printed
    for kind in ("untyped", "typed"):
        assert set(result[kind]) == {"precision", "recall", "f1", "true_positives"}
    assert result["untyped"]["true_positives"] > 0 and result["by_method"]
    assert graph_snapshot(graph) == before  # petstore is gone again, shop untouched
    dev = json.loads(
        cli(
            cli_env,
            "eval",
            "deps",
            "--catalog-file",
            str(REAL / "openapi" / "petstore.yaml"),
            "--gold",
            str(REAL / "gold_edges" / "petstore.json"),
            "--split",
            "dev",
            "--json",
            str(out),
        )
        and out.read_text()
    )
    assert dev["split"] == "dev" and dev["gold"] < 15
    bad = tmp_path / "gold.json"
    bad.write_text(json.dumps([{"source": "nope", "target": "addPet", "type": "TOOL_DIRECTLY_DEPENDS_ON"}]))
    from kg_tools.cli import cli as kg

    result = CliRunner().invoke(
        kg, ["eval", "deps", "--catalog-file", str(REAL / "openapi" / "petstore.yaml"), "--gold", str(bad)], env=cli_env
    )
    assert result.exit_code == 1 and "not tools of" in str(result.exception)
    assert graph_snapshot(graph) == before


def test_response_envelope_titles_name_their_resource():
    """`ListAudiencesResponseSuccess` is about audiences (Resend): a get takes its id from the list of the same
    resource, not from a foreign key (`data[].audience_id`) of broadcasts."""
    from kg_tools.deps.resources import schema_resource

    assert schema_resource("ListAudiencesResponseSuccess") == "audience"
    assert schema_resource("CreateContactRequest") == "contact"
    assert schema_resource("SimplifiedPlaylistObject") == "playlist"
    tools = [ToolInfo.from_raw(t) for t in openapi.load(REAL / "openapi" / "resend.yaml").tools]
    edges = {(e.source, e.target) for e in infer_catalog(tools, None, Examples([])).edges}
    assert ("audiences_get", "audiences_list") in edges and ("audiences_get", "broadcasts_list") not in edges
    assert ("segments_remove", "segments_list") in edges


def test_gold_split_scores_only_the_consumers_of_that_half():
    """`eval deps --catalog-file … --split test` scores the predicted edges of the test half's consumers only;
    a tool without gold lines counts in dev."""
    from benchmarks.deps_gold import read_gold, scored_sources

    gold_file = REAL / "gold_edges" / "petstore.json"
    names = {t["name"] for t in openapi.load(REAL / "openapi" / "petstore.yaml").tools}
    dev, test = (scored_sources(gold_file, s, names) for s in ("dev", "test"))
    assert dev and test and not dev & test and dev | test == names
    assert {e.source for e in read_gold(gold_file, "test")[0]} <= test
    assert "addPet" in dev and scored_sources(gold_file, "all", names) is None


def test_the_collection_a_value_lives_in_decides_between_producers():
    """RESTler's rule by path: DELETE /me/tracks?ids= takes the ids from GET /me/tracks (only), PUT /me/tracks
    (save) and GET /me/tracks/contains never from it; GET /emails/{email_id} from GET /emails, not from the
    list of received emails; a guild member (a wrapper without an id of its own) is its user."""
    edges = {(e.source, e.target): e for e in infer_catalog(spotify_tools(), None, Examples([])).edges}
    # the rule is a feature of the learned scorer: the collection's own list is the most confident provider
    removal = sorted((e for e in edges.values() if e.source == "remove-tracks-user"), key=lambda e: -e.confidence)
    assert removal[0].target == "get-users-saved-tracks"
    assert "the collection DELETE /me/tracks removes from" in removal[0].reason
    assert ("save-tracks-user", "get-users-saved-tracks") not in edges
    assert ("check-users-saved-tracks", "get-users-saved-tracks") not in edges
    resend = [ToolInfo.from_raw(t) for t in openapi.load(REAL / "openapi" / "resend.yaml").tools]
    sent = {(e.source, e.target) for e in infer_catalog(resend, None, Examples([])).edges}
    assert ("emails_get", "emails_list") in sent and ("emails_get", "emails_list-receiving") not in sent
    assert ("emails_cancel", "emails_list") in sent  # POST /emails/{email_id}/cancel addresses an existing email
    discord = [ToolInfo.from_raw(t) for t in openapi.load(REAL / "openapi" / "discord.json").tools]
    members = {(e.source, e.target) for e in infer_catalog(discord, None, Examples([])).edges}
    assert {("get_guild_member", "list_guild_members"), ("unban_user_from_guild", "list_guild_bans")} <= members
    assert ("ban_user_from_guild", "list_guild_bans") not in members  # banning adds to the bans


def test_bare_identifiers_named_by_their_description_and_lists_of_arrays():
    """`names`: "An array of entity names" wants entity names; `read_graph` (entities and relations, nothing
    else) is a listing; a parameter named after a schema noise word (`entityNames`) still names a resource."""
    from kg_tools.loaders.document import mcp_entries

    doc = json.loads((REAL / "mcp" / "memory.json").read_text())
    tools = [ToolInfo.from_raw(t) for t in mcp_entries(doc)]
    edges = {(e.source, e.target): e for e in infer_catalog(tools, None, Examples([])).edges}
    assert {("open_nodes", "read_graph"), ("open_nodes", "search_nodes")} <= set(edges)
    assert edges[("delete_entities", "read_graph")].reason == "`entityNames` ← `entities[].name` of read_graph"


def test_inferred_edges_do_not_point_to_deprecated_twins():
    """A deprecated producer (OpenAPI `deprecated`, a `deprecated_` name, or "DEPRECATED:" in the description)
    serves a current consumer only when nothing current provides the value."""
    items = {"type": "object", "properties": {"items": {"type": "array", "items": {"title": "Widget", "type": "object",
             "properties": {"id": {"type": "string"}}}}}}  # fmt: skip
    raw = [
        {"name": "search_widgets", "description": "Search widgets. DEPRECATED: use list_widgets instead.",
         "output_schema": items, "parameters": []},
        {"name": "list_widgets", "description": "List the widgets.", "output_schema": items, "parameters": []},
        {"name": "get_widget", "description": "Get one widget.",
         "parameters": [{"name": "widget_id", "type": "string", "required": True}]},
        {"name": "deprecated_get_widget", "description": "Get one widget.",
         "parameters": [{"name": "widget_id", "type": "string", "required": True}]},
    ]  # fmt: skip
    proposed = infer_catalog([ToolInfo.from_raw(t) for t in raw], None, Examples([])).edges
    confidence = {(e.source, e.target): e.confidence for e in proposed}
    edges = set(confidence)
    # the rule is a feature of the learned scorer: the current twin is the more confident provider
    assert ("get_widget", "list_widgets") in edges
    assert confidence[("get_widget", "list_widgets")] > confidence.get(("get_widget", "search_widgets"), 0.0)
    only = [ToolInfo.from_raw(t) for t in raw if t["name"] != "list_widgets"]
    assert ("get_widget", "search_widgets") in {
        (e.source, e.target) for e in infer_catalog(only, None, Examples([])).edges
    }


def _mcp_edges(server: str) -> dict:
    from kg_tools.loaders.document import mcp_entries

    doc = json.loads((REAL / "mcp" / f"{server}.json").read_text())
    tools = [ToolInfo.from_raw(t) for t in mcp_entries(doc)]
    return {(e.source, e.target): e for e in infer_catalog(tools, None, Examples([])).edges}


def _mcp_candidates(server: str) -> dict:
    """(consumer, producer) -> the candidate the learned scorer judges (before selection)."""
    from kg_tools.deps.producers import candidate_groups
    from kg_tools.loaders.document import mcp_entries

    doc = json.loads((REAL / "mcp" / f"{server}.json").read_text())
    _, groups = candidate_groups([ToolInfo.from_raw(t) for t in mcp_entries(doc)])
    return {(c.consumer.name, c.producer.name): c for g in groups for c in g}


def test_what_mcp_tools_without_identifying_outputs_say_they_return():
    """MCP servers whose outputs are text: list_directory lists "files and directories" (a `path` of a reader
    is inside its text: indirect), `git_log` holds commits, a parameter's description names its source ("from
    the page snapshot"), a search's query description says what it searches ("page and database titles").
    What the rules find are the scorer's candidates; which of them become edges is learned."""
    from kg_tools.deps.producers import candidate_proposal

    fs = _mcp_candidates("filesystem")
    read = candidate_proposal(fs[("read_text_file", "list_directory")], 0)
    assert (read.parameter_name, read.type) == ("path", "PARAMETER_INDIRECTLY_DEPENDS_ON")
    assert ("list_directory", "list_allowed_directories") in fs and ("write_file", "search_files") not in fs
    assert ("git_show", "git_log") in _mcp_candidates("git")
    pw = _mcp_edges("playwright")
    assert pw[("browser_click", "browser_snapshot")].reason.startswith("`target` ← browser_snapshot")
    assert ("browser_network_request", "browser_network_requests") in pw
    assert ("API-retrieve-a-page", "API-post-search") in _mcp_edges("notion")
