"""A request body's own `readOnly` properties are no parameters of the tool (OpenAPI 3.0: "SHOULD NOT be sent as part
of the request", `required` then holding for the response only; Swagger 2.0: "MUST NOT"; 3.1 / JSON Schema: managed by
the server, a value sent ignored or rejected): the `id`, `created_at`, `owner_id` of a resource schema reused as its
create body are left out of the parameters and the input schema, and named in the input schema's `x-read-only` as
`writable` names those of a nested object (docs/dependencies.md, twenty-seventh session: read-only properties of
request bodies). Real spec shapes: Firefly III's `BudgetLimitStore`, Jira's `User` of `assignIssue`, libregraph's
`$ref` with a `readOnly` sibling, the 3.0 `allOf: [$ref, {readOnly}]` idiom."""

from __future__ import annotations

import json

from kg_tools.deps.producers import Tool, whole_body
from kg_tools.loaders.document import load_document


def _tools(spec: dict) -> dict[str, dict]:
    return {t["name"]: t for t in load_document(json.dumps(spec), "spec").tools}


def _json_body(ref: str) -> dict:
    return {"required": True, "content": {"application/json": {"schema": {"$ref": ref}}}}


def _openapi(schemas: dict, paths: dict) -> dict:
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": paths,
        "components": {"schemas": schemas},
    }


BUDGET_LIMIT = {  # Firefly III: POST /v1/budgets/{id}/limits, the budget named by the path
    "type": "object",
    "required": ["start", "end", "amount", "budget_id"],  # a read-only property listed as required (3.0: responses)
    "properties": {
        "created_at": {"type": "string", "format": "date-time", "readOnly": True},
        "start": {"type": "string", "format": "date-time"},
        "end": {"type": "string", "format": "date-time"},
        "amount": {"type": "string"},
        "budget_id": {"type": "string", "description": "The budget ID of the associated budget.", "readOnly": True},
    },
}


def test_a_body_s_read_only_properties_are_no_parameters():
    path = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
    spec = _openapi(
        {"BudgetLimitStore": BUDGET_LIMIT},
        {
            "/v1/budgets/{id}/limits": {
                "post": {
                    "operationId": "storeBudgetLimit",
                    "parameters": [path],
                    "requestBody": _json_body("#/components/schemas/BudgetLimitStore"),
                }
            }
        },
    )
    tool = _tools(spec)["storeBudgetLimit"]
    assert [(p["name"], p["in"], p["required"]) for p in tool["parameters"]] == [
        ("id", "path", True),
        ("start", "body", True),
        ("end", "body", True),
        ("amount", "body", True),
    ]
    schema = tool["input_schema"]
    assert list(schema["properties"]) == ["id", "start", "end", "amount"]
    assert schema["required"] == ["id", "start", "end", "amount"]  # `budget_id`'s `required` holds for responses
    assert schema["x-read-only"] == ["budget_id", "created_at"]


def test_a_ref_with_a_read_only_sibling_and_the_all_of_idiom_are_read_only():
    """libregraph's `drive: {$ref: drive, readOnly: true}` (3.1: siblings of `$ref` apply) and 3.0's `allOf: [{$ref},
    {readOnly: true}]`; a property with `readOnly: false` or inside `anyOf` alternatives stays."""
    schemas = {
        "drive": {"type": "object", "properties": {"id": {"type": "string"}}},
        "userUpdate": {
            "type": "object",
            "properties": {
                "displayName": {"type": "string"},
                "drive": {"$ref": "#/components/schemas/drive", "readOnly": True},
                "owner": {"allOf": [{"$ref": "#/components/schemas/drive"}, {"readOnly": True}]},
                "mail": {"type": "string", "readOnly": False},
                "either": {"anyOf": [{"type": "string", "readOnly": True}, {"type": "integer"}]},
            },
        },
    }
    spec = _openapi(schemas, {"/me": {"patch": {"operationId": "UpdateOwnUser", "requestBody": _json_body("#/components/schemas/userUpdate")}}})  # fmt: skip
    tool = _tools(spec)["UpdateOwnUser"]
    assert [p["name"] for p in tool["parameters"]] == ["displayName", "mail", "either"]
    assert tool["input_schema"]["x-read-only"] == ["drive", "owner"]


def test_a_nested_all_of_read_only_property_is_left_out_too():
    """The same `allOf` idiom one level down: `writable` leaves it out and names it, as a plain `readOnly` one."""
    schemas = {
        "User": {"type": "object", "properties": {"id": {"type": "string"}}},
        "Task": {
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "owner": {"allOf": [{"$ref": "#/components/schemas/User"}, {"readOnly": True}]},
            },
        },
    }
    wrapper = {"type": "object", "properties": {"data": {"$ref": "#/components/schemas/Task"}}}
    spec = _openapi(schemas, {"/tasks": {"post": {"operationId": "createTask", "requestBody": {"content": {"application/json": {"schema": wrapper}}}}}})  # fmt: skip
    data = _tools(spec)["createTask"]["input_schema"]["properties"]["data"]
    assert list(data["properties"]) == ["title"] and data["x-read-only"] == ["owner"]


def test_a_read_only_body_property_named_like_a_path_parameter_leaves_the_path_parameter():
    body = {"type": "object", "properties": {"id": {"type": "string", "readOnly": True}, "name": {"type": "string"}}}
    path = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
    spec = _openapi({"Thing": body}, {"/things/{id}": {"put": {"operationId": "updateThing", "parameters": [path], "requestBody": _json_body("#/components/schemas/Thing")}}})  # fmt: skip
    tool = _tools(spec)["updateThing"]
    assert [(p["name"], p["in"]) for p in tool["parameters"]] == [("id", "path"), ("name", "body")]
    assert "x-read-only" not in tool["input_schema"]  # `id` is a parameter: the path's


def test_a_body_of_read_only_properties_only_gives_no_parameter():
    body = {"type": "object", "properties": {"id": {"type": "integer", "readOnly": True}}}
    spec = _openapi({"Ping": body}, {"/ping": {"post": {"operationId": "ping", "requestBody": _json_body("#/components/schemas/Ping")}}})  # fmt: skip
    tool = _tools(spec)["ping"]
    assert tool["parameters"] == [] and "input_schema" not in tool


def test_swagger_2_read_only_properties_of_a_body_and_a_form():
    """Swagger 2.0's `readOnly` (a Schema Object's: a body parameter's schema, not a formData parameter's)."""
    spec = {
        "swagger": "2.0",
        "info": {"title": "t", "version": "1"},
        "definitions": {
            "Pet": {
                "type": "object",
                "required": ["name"],
                "properties": {"id": {"type": "integer", "readOnly": True}, "name": {"type": "string"}},
            }
        },
        "paths": {
            "/pets": {
                "post": {
                    "operationId": "addPet",
                    "parameters": [{"in": "body", "name": "pet", "required": True, "schema": {"$ref": "#/definitions/Pet"}}],
                    "responses": {"200": {"description": "ok", "schema": {"$ref": "#/definitions/Pet"}}},
                }
            }
        },
    }  # fmt: skip
    tool = _tools(spec)["addPet"]
    assert [(p["name"], p["in"], p["required"]) for p in tool["parameters"]] == [("name", "body", True)]
    assert tool["input_schema"]["x-read-only"] == ["id"]
    assert tool["output_schema"]["properties"]["id"]["readOnly"] is True  # the response keeps what it sends


def test_a_read_only_flag_on_a_ref_cycle_loads():
    """Hostile: a node whose read-only `parent` and writable `children` are the node itself (the resolver cuts the
    cycle); the read-only `parent` goes whole, the children keep their fields less the read-only ones."""
    node = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "readOnly": True},
            "name": {"type": "string"},
            "parent": {"$ref": "#/components/schemas/Node", "readOnly": True},
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}},
        },
    }
    spec = _openapi({"Node": node}, {"/nodes": {"post": {"operationId": "createNode", "requestBody": _json_body("#/components/schemas/Node")}}})  # fmt: skip
    tool = _tools(spec)["createNode"]
    assert [p["name"] for p in tool["parameters"]] == ["name", "children"]
    schema = tool["input_schema"]
    assert schema["x-read-only"] == ["id", "parent"]
    assert schema["properties"]["children"]["items"] == {"type": "object"}  # the cycle cut: its scalars only


def test_the_body_s_number_past_other_parameters_is_the_one_inference_reads_whole():
    """A query parameter `body` and a header `body_2` beside an `allOf` body: the loader names the body `body_3`
    (loaders/openapi.py `numbered_body`), and inference reads that parameter, and no other, as the whole body."""
    params = [
        {"name": "body", "in": "query", "schema": {"type": "string"}},
        {"name": "body_2", "in": "header", "schema": {"type": "string"}},
    ]
    parts = [{"type": "object", "properties": {n: {"type": "string"}}} for n in ("name", "region")]
    body = {"required": True, "content": {"application/json": {"schema": {"allOf": parts}}}}
    spec = _openapi(
        {}, {"/droplets": {"post": {"operationId": "createDroplet", "parameters": params, "requestBody": body}}}
    )
    loaded = _tools(spec)["createDroplet"]
    tool = Tool(loaded["name"], "", loaded["parameters"], http=loaded["http"])
    assert [p["name"] for p in tool.parameters] == ["body", "body_2", "body_3"]
    assert [whole_body(tool, p) for p in tool.parameters] == [False, False, True]
