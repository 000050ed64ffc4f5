"""Malformed JSON Schemas in a catalog (`anyOf: 5`, `properties: ["id"]`, `required: "id"` ...): every importer
refuses them with one CatalogError naming the tool and the JSON pointer of the bad keyword, never a TypeError."""

from __future__ import annotations

import re

import pytest

from kg_tools.errors import CatalogError
from kg_tools.loaders import openai_tools, openapi
from kg_tools.loaders.document import mcp_entries
from kg_tools.loaders.json_schema import check_schema, well_formed

BAD = [
    ({"properties": {"id": {"anyOf": 5}}}, "inputSchema/properties/id/anyOf must be a list of schemas, not 5"),
    ({"allOf": {}}, "inputSchema/allOf must be a list of schemas, not {}"),
    ({"properties": ["id"]}, 'inputSchema/properties must be an object of schemas by name, not ["id"]'),
    ({"properties": {"ids": {"items": 3}}}, "inputSchema/properties/ids/items must be a schema (an object), not 3"),
    ({"required": "id"}, 'inputSchema/required must be a list of property names, not "id"'),
    ({"required": [["id"]]}, 'inputSchema/required must be a list of property names, not [["id"]]'),
    ({"properties": {"a": {"enum": True}}}, "inputSchema/properties/a/enum must be a list of values, not true"),
    ({"properties": {"a": {"type": 7}}}, "inputSchema/properties/a/type must be a JSON type name or a list of them"),
    ({"properties": {"a/b": {"not": 1}}}, "inputSchema/properties/a~1b/not must be a schema (an object), not 1"),
    ({"oneOf": [{"type": "string"}, 5]}, "inputSchema/oneOf/1 must be a schema (an object), not 5"),
    ({"$defs": {"X": {"$ref": 5}}}, "inputSchema/$defs/X/$ref must be a string (a reference), not 5"),
]
FINE = [
    {"type": "object", "properties": {"id": {"type": ["string", "null"]}, "on": True}, "required": ["id"]},
    {"properties": {"pair": {"items": [{"type": "string"}, {"type": "integer"}]}}},  # the tuple form (draft 4-2019)
    {"properties": {"id": {"type": "string", "required": True}}},  # draft 3's flag
    {
        "properties": {"f": {"type": "file"}},
        "anyOf": [],
        "x-odd": 5,
        "examples": [{"type": 7}],
        "default": {"anyOf": 5},
    },
]


@pytest.mark.parametrize(("schema", "message"), BAD)
def test_each_importer_names_the_tool_and_the_pointer_of_a_malformed_keyword(schema, message):
    with pytest.raises(CatalogError, match="^MCP tool 'get_user': " + re.escape(message)):
        mcp_entries({"tools": [{"name": "get_user", "inputSchema": schema}]})
    with pytest.raises(CatalogError, match=r"^tool #0 \(get_user\): parameters/"):
        openai_tools.entries([{"type": "function", "function": {"name": "get_user", "parameters": schema}}])


def test_an_mcp_output_schema_is_checked_too():
    with pytest.raises(CatalogError, match="^MCP tool 'get_user': outputSchema/properties/id/type must be"):
        mcp_entries(
            {"tools": [{"name": "get_user", "inputSchema": {}, "outputSchema": {"properties": {"id": {"type": 7}}}}]}
        )


def _spec(parameter_schema: dict, body: dict, response: dict) -> dict:
    json_of = {"application/json": {"schema": body}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/users/{id}": {
                "patch": {
                    "operationId": "update_user",
                    "parameters": [{"name": "id", "in": "path", "required": True, "schema": parameter_schema}],
                    "requestBody": {"content": json_of},
                    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": response}}}},
                }
            }
        },
    }


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (_spec({"type": 7}, {}, {}), "PATCH /users/{id}: parameters/id/schema/type must be"),
        (_spec({}, {"properties": None}, {}), "PATCH /users/{id}: requestBody/content/schema/properties must be"),
        (
            _spec({}, {"required": [["x"]], "properties": {}}, {}),
            "PATCH /users/{id}: requestBody/content/schema/required",
        ),
        (_spec({}, {}, {"anyOf": 5}), "PATCH /users/{id}: responses/200/content/schema/anyOf must be a list"),
    ],
)
def test_openapi_names_the_operation_and_where_in_it(spec, message):
    with pytest.raises(CatalogError, match="^spec.json: " + re.escape(message)):
        openapi.entries(spec, "spec.json", [])


@pytest.mark.parametrize("schema", FINE)
def test_well_formed_odd_schemas_are_loaded(schema):
    check_schema(schema, "tool", "inputSchema")
    assert mcp_entries({"tools": [{"name": "t", "inputSchema": schema}]})[0]["input_schema"] == schema


def test_well_formed_drops_only_the_malformed_keywords():
    schema = {
        "type": "object",
        "properties": {"id": {"type": "string", "anyOf": 5}, "n": 3, "tags": {"items": [{"enum": "x"}, True]}},
        "required": "id",
        "allOf": [{"required": ["id"], "enum": 1}],
        "x-note": {"anyOf": 5},
    }
    assert well_formed(schema) == {
        "type": "object",
        "properties": {"id": {"type": "string"}, "n": {}, "tags": {"items": [{}, True]}},
        "allOf": [{"required": ["id"]}],
        "x-note": {"anyOf": 5},
    }
    assert well_formed({"properties": {"id": {"required": True}}}) == {"properties": {"id": {}}}
