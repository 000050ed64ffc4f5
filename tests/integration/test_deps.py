"""Dependency inference against the real Neo4j: apply / list / undo runs, the LLM judge (fake server), the CLI flow on an imported OpenAPI spec, the REST endpoints and eval deps."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from kg_tools.cli import cli as group
from kg_tools.cli import cli as kg
from kg_tools.deps import apply_results, infer_graph, undo_run
from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.offline import Examples, LabelledEdge, ToolInfo, infer_offline
from kg_tools.ingest import load_catalog
from kg_tools.llm import LLMClient
from kg_tools.loaders import openapi
from tests.conftest import graph_snapshot
from tests.support import FIXTURES
from tests.support.cli_process import neo4j_env
from tests.unit.kg_tools.deps.test_infer import REAL, SPOTIFY, tool

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


@pytest.mark.integration
def test_llm_judge_answers_validation_and_fallback(embedder, llm_settings, fake_llm):
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

    result = CliRunner().invoke(
        kg, ["eval", "deps", "--catalog-file", str(REAL / "openapi" / "petstore.yaml"), "--gold", str(bad)], env=cli_env
    )
    assert result.exit_code == 1 and "not tools of" in str(result.exception)
    assert graph_snapshot(graph) == before
