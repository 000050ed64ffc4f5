"""Importers: OpenAI tool lists, OpenAPI 3.x (JSON/YAML, $ref), MCP servers (stdio and streamable HTTP).
Format translation is tested without a database; loading goes through `kg-tools load` against Neo4j
and a second run must change nothing."""

from __future__ import annotations

import json
import sys

import pytest
import yaml

from kg_tools.errors import CatalogError
from kg_tools.loaders import mcp_server, openai_tools, openapi
from kg_tools.loaders.document import load_document
from kg_tools.processes import free_port
from kg_tools.tool_spec import validate_catalog
from tests.support import FIXTURES

SHOP = FIXTURES / "shop_openapi.yaml"
OPENAI = FIXTURES / "openai_tools.json"
TINY_MCP = FIXTURES / "tiny_mcp_server.py"


def by_name(tools):
    return {t["name"]: t for t in tools}


# -- format translation (no database) ------------------------------------------------------------


def test_openapi_operations_names_refs_and_flattened_parameters():
    tools = by_name(openapi.load(SHOP).tools)
    # operationId as given, sanitised ("add-to-cart" is valid), or method + path
    assert set(tools) == {"login_user", "searchProducts", "get_products_product_id", "add-to-cart"}
    login = tools["login_user"]
    assert [(p["name"], p["in"], p["required"]) for p in login["parameters"]] == [
        ("username", "body", True),
        ("password", "body", True),
    ]  # body $ref resolved
    assert "session token" in login["description"]
    search = tools["searchProducts"]
    assert [(p["name"], p["in"], p["required"], p["type"]) for p in search["parameters"]] == [
        ("q", "query", True, "string"),
        ("limit", "query", False, "integer"),
    ]
    assert search["parameters"][1]["default"] == 20
    detail = tools["get_products_product_id"]  # a path-level parameter $ref
    assert detail["parameters"] == [
        {"name": "product_id", "type": "string", "description": "Id of the product.", "required": True, "in": "path"}
    ]
    assert detail["http"] == {"method": "GET", "path": "/products/{product_id}"}
    cart = tools["add-to-cart"]
    assert [(p["name"], p["in"]) for p in cart["parameters"]] == [
        ("X-Session-Token", "header"),
        ("product_id", "body"),
        ("quantity", "body"),
    ]


def test_openapi_json_and_yaml_give_the_same_catalog(tmp_path):
    as_json = tmp_path / "shop.json"
    as_json.write_text(json.dumps(yaml.safe_load(SHOP.read_text())))
    assert openapi.load(as_json).tools == openapi.load(SHOP).tools
    assert openapi.load(as_json, "shop").catalog == "shop"


@pytest.mark.parametrize(
    "document, message",
    [
        ({"swagger": "1.2", "paths": {}}, "only OpenAPI 3.0/3.1/3.2 and Swagger 2.0 are supported .found swagger 1.2."),
        ({"openapi": "3.0.3", "paths": {}}, "no operations"),
        (
            {"openapi": "3.0.3", "paths": {"/a": {"$ref": "#/components/pathItems/Nope"}}},
            "its $ref '#/components/pathItems/Nope' does not resolve",
        ),
        (
            {"openapi": "3.0.3", "paths": {"/a": {"get": {"parameters": [{"$ref": "other.yaml#/X"}]}}}},
            "only local $refs",
        ),
        (
            {"openapi": "3.0.3", "paths": {"/a": {"get": {"parameters": [{"$ref": "#"}]}}}},
            "$ref '#' is the whole document, not a part of it",
        ),
    ],
)
def test_openapi_errors_are_clear(tmp_path, document, message):
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(document))
    with pytest.raises(CatalogError, match=message.replace("$", r"\$")):
        openapi.load(path)


def test_openapi_reference_cycles_terminate(tmp_path):
    spec = {
        "openapi": "3.1.0",
        "paths": {
            "/n": {
                "post": {
                    "operationId": "add node",
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}},
                }
            }
        },
        "components": {
            "schemas": {
                "Node": {
                    "type": "object",
                    "properties": {"label": {"type": "string"}, "child": {"$ref": "#/components/schemas/Node"}},
                }
            }
        },
    }
    path = tmp_path / "cycle.json"
    path.write_text(json.dumps(spec))
    tool = openapi.load(path).tools[0]
    assert tool["name"] == "add_node"
    assert [(p["name"], p["type"]) for p in tool["parameters"]] == [("label", "string"), ("child", "object")]


def test_openai_tools_wrapped_and_bare():
    tools = by_name(openai_tools.load(OPENAI).tools)
    assert set(tools) == {"get_weather", "get_current_location", "send_email"}
    weather = tools["get_weather"]["parameters"]
    assert weather[0] == {"name": "city", "type": "string", "description": "City name, e.g. Paris", "required": True}
    assert weather[1]["enum"] == ["celsius", "fahrenheit"] and weather[1]["required"] is False
    assert [p["name"] for p in tools["send_email"]["parameters"] if p["required"]] == ["to", "body"]
    assert tools["get_current_location"]["parameters"] == []
    with pytest.raises(CatalogError, match="needs a name"):
        openai_tools.entries([{"type": "function", "function": {"description": "x"}}])


def test_mcp_loader_over_stdio():
    source = mcp_server.load([sys.executable, str(TINY_MCP)])
    assert source.catalog == "tiny-notes"  # the server's name
    tools = by_name(source.tools)
    assert set(tools) == {"create_note", "search_notes", "delete_note"}
    assert tools["delete_note"]["description"].startswith("Delete a note by its id")
    assert [(p["name"], p["type"], p["required"]) for p in tools["create_note"]["parameters"]] == [
        ("title", "string", True),
        ("body", "string", False),
        ("tags", "array", False),
    ]
    assert mcp_server.load([sys.executable, str(TINY_MCP)], catalog="notes").catalog == "notes"
    # what the server says besides the input schema is kept: title, outputSchema, annotations
    search, delete = tools["search_notes"], tools["delete_note"]
    assert search["title"] == "Search notes"
    assert search["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    assert search["output_schema"]["properties"]["result"]["type"] == "array"
    assert delete["annotations"] == {"destructiveHint": True, "idempotentHint": True}
    assert "title" not in delete


def test_mcp_tool_list_keeps_title_output_schema_and_annotations_and_caps_huge_schemas():
    huge = {
        "type": "object",
        "properties": {
            f"field_{i}": {
                "type": "object",
                "description": "x" * 50,
                "properties": {
                    "nested": {"type": "object", "properties": {"deep": {"type": "string", "description": "y" * 200}}}
                },
            }
            for i in range(400)
        },
    }
    doc = {
        "tools": [
            {
                "name": "read_text_file",
                "title": "Read text file",
                "description": "Read a file.",
                "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
                "outputSchema": {
                    "type": "object",
                    "properties": {"content": {"type": "string"}},
                    "required": ["content"],
                },
                "annotations": {"readOnlyHint": True},
            },
            {"name": "dump", "description": "Everything.", "inputSchema": {"type": "object"}, "outputSchema": huge},
        ]
    }
    source = load_document(json.dumps(doc), "fs")
    read, dump = by_name(source.tools)["read_text_file"], by_name(source.tools)["dump"]
    assert read["output_schema"] == doc["tools"][0]["outputSchema"]
    assert read["annotations"] == {"readOnlyHint": True} and read["title"] == "Read text file"
    assert len(json.dumps(dump["output_schema"])) <= 20_000
    assert any("MCP tool 'dump': outputSchema: schema cut" in w for w in source.warnings)
    bad = {"tools": [{"name": "x", "inputSchema": {}, "outputSchema": "a string"}]}
    with pytest.raises(CatalogError, match="outputSchema: must be a JSON object"):
        load_document(json.dumps(bad), "fs")


def test_catalog_validation_names_a_bad_annotation():
    with pytest.raises(CatalogError) as info:
        validate_catalog([{"name": "x", "annotations": {"readOnlyHint": "sometimes"}}])
    assert any("annotations.readOnlyHint" in p for p in info.value.problems)


def test_mcp_loader_errors_are_clear():
    with pytest.raises(CatalogError, match="not both or neither"):
        mcp_server.load(None, None)
    with pytest.raises(CatalogError, match="MCP server"):
        mcp_server.load(["/nonexistent/mcp-server-binary"])
    with pytest.raises(CatalogError, match="MCP server"):
        mcp_server.load(url=f"http://127.0.0.1:{free_port()}/mcp", timeout=20)


# -- loading through the CLI: validated, transactional, idempotent ------------------------------


def test_openai_strict_is_kept():
    tools = by_name(
        openai_tools.entries(
            [
                {"type": "function", "function": {"name": "a", "strict": True, "parameters": {"type": "object"}}},
                {"type": "function", "function": {"name": "b"}},
            ]
        )
    )
    assert tools["a"]["strict"] is True and "strict" not in tools["b"]


def test_openapi_keeps_the_input_schema_of_parameters_and_body(tmp_path):
    """Path/query parameters and the body's properties in one schema: `allOf` merged, `readOnly` properties left
    out, a parameter's description kept; the parameters themselves are as before."""
    spec = {
        "openapi": "3.0.3",
        "paths": {
            "/teams/{team_id}/projects": {
                "post": {
                    "operationId": "createProject",
                    "parameters": [
                        {"name": "team_id", "in": "path", "description": "The team.", "schema": {"type": "string"}},
                        {"name": "pretty", "in": "query", "schema": {"type": "boolean"}},
                    ],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["data"],
                                    "properties": {"data": {"$ref": "#/components/schemas/ProjectRequest"}},
                                }
                            }
                        },
                    },
                }
            }
        },
        "components": {
            "schemas": {
                "Project": {
                    "type": "object",
                    "properties": {
                        "gid": {"type": "string", "readOnly": True},
                        "name": {"type": "string"},
                    },
                },
                "ProjectRequest": {
                    "allOf": [
                        {"$ref": "#/components/schemas/Project"},
                        {
                            "type": "object",
                            "required": ["workspace"],
                            "properties": {
                                "workspace": {"type": "string", "description": "The gid of a workspace."},
                                "parent": {"type": "object", "properties": {"id": {"type": "string"}}},
                            },
                        },
                    ]
                },
            }
        },
    }
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    tool = openapi.load(path).tools[0]
    assert [(p["name"], p["in"], p["type"]) for p in tool["parameters"]] == [
        ("team_id", "path", "string"),
        ("pretty", "query", "boolean"),
        ("data", "body", "object"),
    ]
    schema = tool["input_schema"]
    assert schema["required"] == ["team_id", "data"]
    assert schema["properties"]["team_id"] == {"type": "string", "description": "The team."}
    data = schema["properties"]["data"]
    assert data["type"] == "object" and "allOf" not in data
    assert list(data["properties"]) == ["name", "workspace", "parent"]  # `gid` is read-only
    assert data["x-read-only"] == ["gid"]  # named: a model with a read-only id, posted inside a body, is an instance
    assert data["required"] == ["workspace"]
    assert data["properties"]["parent"]["properties"] == {"id": {"type": "string"}}
    validated = validate_catalog([tool])  # kept as an extra field of the spec
    assert validated.specs[0].model_extra["input_schema"] == schema


def test_openapi_input_schema_is_size_capped_with_a_warning(tmp_path):
    big = {f"field_{i}": {"type": "string", "description": "x" * 400} for i in range(100)}
    spec = {
        "openapi": "3.0.3",
        "paths": {
            "/things": {
                "post": {
                    "operationId": "createThing",
                    "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": big}}}},
                },
                "get": {"operationId": "listThings"},
            }
        },
    }
    source = load_document(json.dumps(spec), "things", "openapi")
    tools = by_name(source.tools)
    assert "input_schema" not in tools["listThings"]  # no parameters, no schema
    assert len(json.dumps(tools["createThing"]["input_schema"])) <= 20_000
    assert list(tools["createThing"]["input_schema"]["properties"]) == list(big)  # descriptions went first
    assert any("POST /things: input schema: descriptions and examples left out" in w for w in source.warnings)
