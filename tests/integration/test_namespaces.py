"""Catalogs are namespaces (issue 30, item 1): a tool is (catalog, name). Two catalogs with tools of the
same names load side by side and are retrieved, fetched and deleted independently; a bare name works where
it is unique and is a 409 listing the catalogs (REST) / a clear error (MCP) where it is not; a real OpenAPI
spec loads beside a catalog that already has its operation names; `kg-tools schema apply` migrates a graph
made with the old schema (names unique in the whole graph). Real Neo4j throughout."""

from __future__ import annotations

import json

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client

from kg_tools import PROJECT_ROOT
from kg_tools.api.app import create_app
from kg_tools.catalog_store import delete_catalog, list_catalogs
from kg_tools.errors import AmbiguousToolError
from kg_tools.ingest import load_catalog
from kg_tools.loaders import openapi
from kg_tools.mcp_server import McpBackend, build_server
from kg_tools.retrieval import Pipeline, RetrievalRequest
from kg_tools.schema import apply_schema
from tests.conftest import wipe
from tests.integration.test_cli_load import assert_one_error_line, cli_env, run_cli, tool  # noqa: F401

pytestmark = pytest.mark.integration
quiet = lambda *_: None  # noqa: E731
PETSTORE = PROJECT_ROOT / "benchmarks" / "data" / "real" / "openapi" / "petstore.yaml"


def shop(description: str) -> list[dict]:
    """The same three names in every catalog, described differently per catalog."""
    return [
        tool("login", description=f"Log in to the {description}."),
        tool("get_order", ["login"], description=f"Get an order from the {description}."),
        tool("cancel_order", ["get_order"], description=f"Cancel an order in the {description}."),
    ]


@pytest.fixture
def two_shops(graph, embedder):
    wipe(graph)
    load_catalog(graph, embedder, shop("pizza shop"), "pizza", log=quiet)
    load_catalog(graph, embedder, shop("book shop"), "books", log=quiet)
    return graph


def retrieve(settings, graph, embedder, **fields) -> list[tuple[str, str]]:
    """(name, description) of each tool a retrieval returns."""
    response = Pipeline(graph, embedder, settings).retrieve(RetrievalRequest(**fields))
    return [(t.name, t.spec.get("description", "")) for t in response.tools]


def test_same_names_load_side_by_side_and_are_retrieved_fetched_and_deleted_independently(
    settings, two_shops, embedder
):
    graph = two_shops
    counts = {c.name: (c.tools, c.edges) for c in list_catalogs(graph)}
    assert counts == {"pizza": (3, 2), "books": (3, 2)}
    for catalog, words in (("pizza", "pizza shop"), ("books", "book shop")):
        found = retrieve(settings, graph, embedder, query="cancel my order", k=1, K=3, catalog=catalog)
        assert [n for n, _ in found] == ["cancel_order", "get_order", "login"]
        assert all(words in d for _, d in found), found  # the seed and its dependencies from this catalog only
        both = retrieve(settings, graph, embedder, query="cancel my order", k=1, K=3, catalogs=[catalog])
        assert both == found  # a list of one catalog is that catalog
    app = create_app(settings, graph=graph, embedder=embedder)
    with TestClient(app) as client:
        one = client.get("/v1/tools/get_order", params={"catalog": "books"})
        assert one.status_code == 200 and one.json()["catalog"] == "books"
        assert "book shop" in one.json()["spec"]["description"]
        deps = client.get("/v1/tools/cancel_order/dependencies", params={"catalog": "pizza"}).json()
        assert deps["catalog"] == "pizza" and [d["name"] for d in deps["dependencies"]] == ["get_order", "login"]
        # a PUT addresses one catalog's tool; the other catalog's tool of that name is untouched
        changed = tool("login", description="Log in to the pizza shop with a PIN.")
        put = client.put("/v1/tools/login", params={"catalog": "pizza"}, json=changed)
        assert put.status_code == 200, put.text
        assert "book shop" in client.get("/v1/tools/login", params={"catalog": "books"}).json()["spec"]["description"]
        assert client.delete("/v1/tools/cancel_order", params={"catalog": "pizza"}).status_code == 204
        assert client.get("/v1/tools/cancel_order", params={"catalog": "pizza"}).status_code == 404
        assert client.get("/v1/tools/cancel_order").json()["catalog"] == "books"  # now unique: a bare name works
    delete_catalog(graph, "books")
    left = graph.read("MATCH (t:Tool) RETURN t.catalog AS catalog, t.name AS name ORDER BY name")
    assert [(r["catalog"], r["name"]) for r in left] == [("pizza", "get_order"), ("pizza", "login")]
    found = retrieve(settings, graph, embedder, query="get my order", k=1, K=3)
    assert found[:2] == [
        ("get_order", "Get an order from the pizza shop."),
        ("login", "Log in to the pizza shop with a PIN."),
    ]


def test_a_bare_name_is_the_tool_where_unique_and_a_409_listing_the_catalogs_where_not(settings, two_shops, embedder):
    graph = two_shops
    load_catalog(graph, embedder, [tool("pizza_menu")], "pizza", log=quiet)
    app = create_app(settings, graph=graph, embedder=embedder)
    with TestClient(app) as client:
        assert client.get("/v1/tools/pizza_menu").json()["catalog"] == "pizza"
        for method, path in (("GET", "/v1/tools/login"), ("GET", "/v1/tools/login/dependencies")):
            answer = client.request(method, path)
            assert answer.status_code == 409, answer.text
            body = answer.json()
            assert body["error"] == "ambiguous_tool" and body["catalogs"] == ["books", "pizza"]
            assert body["detail"].endswith("books, pizza")
        put = client.put("/v1/tools/login", json=tool("login"))
        assert put.status_code == 409 and put.json()["catalogs"] == ["books", "pizza"]
        assert client.delete("/v1/tools/login").status_code == 409
        # a new name without a catalog goes to the default catalog, as before
        assert client.put("/v1/tools/brand_new", json=tool("brand_new")).json()["tool"]["catalog"] == "api"
    assert len(graph.read("MATCH (t:Tool {name: 'login'}) RETURN t")) == 2  # nothing was deleted or changed


def test_mcp_get_tool_names_the_catalogs_of_an_ambiguous_name(settings, two_shops, embedder):

    service = McpBackend(settings, graph=two_shops, embedder=embedder)
    with pytest.raises(AmbiguousToolError):
        service.get("login")
    assert service.get("login", "books")["catalog"] == "books"

    async def run():
        async with Client(build_server(service)) as client:
            ambiguous = await client.call_tool("get_tool", {"name": "login"})
            one = await client.call_tool("get_tool", {"name": "login", "catalog": "pizza"})
            return ambiguous, one

    ambiguous, one = anyio.run(run)
    assert ambiguous.is_error
    text = ambiguous.content[0].text
    assert "in 2 catalogs" in text and "'books'" in text and "'pizza'" in text
    assert not one.is_error and json.loads(one.content[0].text)["catalog"] == "pizza"


def test_a_real_openapi_spec_loads_beside_a_catalog_that_has_its_operation_names(settings, graph, embedder):
    """Seal-Tools holds createUser/getUser-like names; petstore.yaml's operations loaded beside them used to
    fail with a name collision."""

    wipe(graph)
    seal = [tool(n, description=f"Seal-Tools {n}.") for n in ("createUser", "deleteUser", "getUser", "createTask")]
    load_catalog(graph, embedder, seal, "seal", log=quiet)
    source = openapi.load(PETSTORE, "petstore")
    result = load_catalog(graph, embedder, source.tools, "petstore", log=quiet)
    assert result.tools == 19
    both = graph.read("MATCH (t:Tool) WHERE t.name IN ['createUser', 'deleteUser'] RETURN t.catalog AS c ORDER BY c")
    assert [r["c"] for r in both] == ["petstore", "petstore", "seal", "seal"]
    found = retrieve(settings, graph, embedder, query="create a user", k=1, K=1, catalog="petstore")
    assert found[0][0] == "createUser" and "Seal" not in found[0][1]


def test_schema_apply_migrates_a_graph_made_with_the_old_schema(settings, graph, embedder):
    """Names were unique in the whole graph (tool_name_unique) and some tools had no catalog: apply moves
    them to the default catalog, swaps the constraint, and twice changes nothing."""
    wipe(graph)
    graph.write("DROP CONSTRAINT tool_catalog_name_unique IF EXISTS")
    graph.write("DROP INDEX tool_name IF EXISTS")
    graph.write("CREATE CONSTRAINT tool_name_unique IF NOT EXISTS FOR (t:Tool) REQUIRE t.name IS UNIQUE")
    graph.write("CREATE (:Tool:Regular {name: 'old_tool', description: 'From an old graph.'})")
    apply_schema(graph, embedder.dimension, embedder.name)
    apply_schema(graph, embedder.dimension, embedder.name)
    constraints = {
        r["name"]: r["properties"]
        for r in graph.read("SHOW CONSTRAINTS YIELD name, properties RETURN name, properties")
    }
    assert "tool_name_unique" not in constraints
    assert constraints["tool_catalog_name_unique"] == ["catalog", "name"]
    assert graph.read("MATCH (t:Tool {name: 'old_tool'}) RETURN t.catalog AS c")[0]["c"] == "api"
    load_catalog(graph, embedder, [tool("old_tool")], "other", log=quiet)  # the same name in another catalog
    with pytest.raises(Exception, match="already exists"):
        graph.write("CREATE (:Tool {name: 'old_tool', catalog: 'other'})")  # but not twice in one


def test_cli_retrieve_takes_several_catalogs(two_shops, embedder, cli_env, capsys):
    code, out, err = run_cli(
        capsys, "retrieve", "cancel my order", "--catalog", "books", "--json", "--k", "1", "--K", "3"
    )
    assert code == 0, err
    assert all("book shop" in t["spec"]["description"] for t in json.loads(out)["tools"])
    crowd = [tool(f"cancel_my_order_{i}", description=f"Cancel my order number {i}.") for i in range(20)]
    load_catalog(two_shops, embedder, crowd, "crowd", log=quiet)
    code, out, err = run_cli(capsys, "retrieve", "cancel my order", "--json", "--k", "3")
    assert code == 0 and all(t["name"].startswith("cancel_my_order_") for t in json.loads(out)["tools"])
    code, out, err = run_cli(
        capsys, "retrieve", "cancel my order", "--catalog", "books", "--catalog", "pizza", "--json", "--k", "3"
    )
    assert code == 0, err
    tools = json.loads(out)["tools"]
    assert tools and all("shop" in t["spec"]["description"] for t in tools)  # the crowd is filtered out in-query
