"""OpenAPI 3.2's new places for operations and parameters (s23rev fuzzing): a `query` operation and
`additionalOperations` were dropped without a word (a spec of only them refused as having no operations), an
`in: querystring` parameter refused the whole spec as one with no name or 'in'."""

from __future__ import annotations

import pytest

from kg_tools.errors import CatalogError
from kg_tools.loaders import openapi

OK = {"200": {"description": "", "content": {"application/json": {"schema": {"type": "object"}}}}}


def tools(item: dict) -> dict[str, dict]:
    document = {"openapi": "3.2.0", "info": {"title": "t", "version": "1"}, "paths": {"/things": item}}
    return {t["name"]: t for t in openapi.entries(document, "x.json", [])}


def test_a_query_operation_is_a_tool_with_its_body():
    body = {"content": {"application/json": {"schema": {"type": "object", "properties": {"q": {"type": "string"}}}}}}
    (tool,) = tools({"query": {"operationId": "searchThings", "requestBody": body, "responses": OK}}).values()
    assert tool["http"]["method"] == "QUERY" and [p["name"] for p in tool["parameters"]] == ["q"]


def test_additional_operations_are_tools_named_by_their_method():
    item = {
        "get": {"operationId": "getThing", "responses": OK},
        "additionalOperations": {"LINK": {"responses": OK}, "get": {"operationId": "shadow", "responses": OK}},
    }
    found = tools(item)
    assert set(found) == {"getThing", "link_things"}  # a fixed method's name there is no other operation
    assert found["link_things"]["http"]["method"] == "LINK"


def test_additional_operations_that_are_no_method_of_their_own_are_left_out_with_a_warning():
    """s24rev fuzzing: `LINK` beside `link` made two tools of one name (the catalog refused), a key of 300
    characters or `ÜBER` one whose method the catalog refused, `GET` with no `get` beside it went without a word."""
    item = {"additionalOperations": {k: {"responses": OK} for k in ("LINK", "link", "GET", "ÜBER", "M" * 300)}}
    document = {"openapi": "3.2.0", "info": {"title": "t", "version": "1"}, "paths": {"/things": item}}
    warnings: list[str] = []
    assert [t["name"] for t in openapi.entries(document, "x.json", warnings)] == ["link_things"]
    (said,) = warnings
    assert said.startswith("x.json: 4 additionalOperations left out: 'link' of /things (LINK is there already); ")
    assert "'GET' of /things (a method with its own field, `get`)" in said
    assert "'ÜBER' of /things (not an HTTP method name of at most 16 characters)" in said


def test_a_querystring_parameter_gives_its_form_fields_as_query_parameters():
    schema = {"type": "object", "properties": {"page": {"type": "integer"}, "owner_id": {"type": "string",
              "description": "The owner."}}, "required": ["owner_id"]}  # fmt: skip
    qs = {"in": "querystring", "name": "qs", "content": {"application/x-www-form-urlencoded": {"schema": schema}}}
    (tool,) = tools({"get": {"operationId": "listThings", "parameters": [qs], "responses": OK}}).values()
    got = [(p["name"], p["in"], p["required"], p["description"]) for p in tool["parameters"]]
    assert got == [("page", "query", False, ""), ("owner_id", "query", True, "The owner.")]
    assert tool["input_schema"]["required"] == ["owner_id"]


def test_a_querystring_parameter_of_another_schema_is_one_query_parameter_and_a_bad_one_is_named():
    qs = {"in": "querystring", "name": "raw", "content": {"text/plain": {"schema": {"type": "string"}}}}
    (tool,) = tools({"get": {"operationId": "raw", "parameters": [qs], "responses": OK}}).values()
    assert [(p["name"], p["in"]) for p in tool["parameters"]] == [("raw", "query")]
    qs["content"]["text/plain"]["schema"] = True  # a boolean schema: any value
    (tool,) = tools({"get": {"operationId": "raw", "parameters": [qs], "responses": OK}}).values()
    assert [(p["name"], p["in"]) for p in tool["parameters"]] == [("raw", "query")]
    qs["content"]["text/plain"]["schema"] = {"type": 5}
    with pytest.raises(CatalogError, match=r"GET /things: parameters/raw/content/schema/type must be"):
        tools({"get": {"operationId": "raw", "parameters": [qs], "responses": OK}})


def test_a_parameter_in_no_place_says_what_it_has():
    bad = {"name": "b", "in": "body", "schema": {"type": "object"}}  # Swagger 2's, in an OpenAPI 3 document
    with pytest.raises(
        CatalogError, match=r"GET /things: a parameter needs a name and 'in' .*: got name 'b', in 'body'"
    ):
        tools({"get": {"operationId": "g", "parameters": [bad], "responses": OK}})


def test_a_body_whose_schema_is_true_is_one_untyped_parameter():
    """s23rev fuzzing: a 3.1 boolean schema as the request body raised AttributeError."""
    body = {"content": {"application/json": {"schema": True}}}
    (tool,) = tools({"post": {"operationId": "p", "requestBody": body, "responses": OK}}).values()
    assert [(p["name"], p["in"]) for p in tool["parameters"]] == [("body", "body")]


def test_a_parameter_ref_that_leads_back_to_itself_is_named_as_a_cycle():
    document = {
        "openapi": "3.2.0",
        "info": {"title": "t", "version": "1"},
        "components": {"parameters": {"P": {"$ref": "#/components/parameters/Q"}, "Q": {"$ref": "#/components/parameters/P"}}},
        "paths": {"/things": {"get": {"parameters": [{"$ref": "#/components/parameters/P"}], "responses": OK}}},
    }  # fmt: skip
    with pytest.raises(CatalogError, match=r"GET /things: .*got a cycle of \$refs through '#/components/parameters/P'"):
        openapi.entries(document, "x.json", [])
    document["components"]["parameters"]["P"] = {"in": "query"}
    with pytest.raises(CatalogError, match=r"got name None, in 'query' from \$ref '#/components/parameters/P'"):
        openapi.entries(document, "x.json", [])


def test_an_additional_operation_whose_ref_stands_for_nothing_is_left_out():
    """s24rev: a `$ref` there that dangles or leads back to itself made a tool of nothing (`copy_things`)."""
    more = {"LINK": {"$ref": "#/components/x/L"}, "COPY": {"$ref": "#/nowhere"}, "MOVE": {"$ref": "#/components/x/M"}}
    document = {
        "openapi": "3.2.0",
        "info": {"title": "t", "version": "1"},
        "components": {"x": {"L": {"$ref": "#/components/x/L"}, "M": {"operationId": "moveIt", "responses": OK}}},
        "paths": {"/things": {"additionalOperations": more}},
    }
    warnings: list[str] = []
    assert [t["name"] for t in openapi.entries(document, "x.json", warnings)] == ["moveIt"]
    assert warnings[0] == (
        "x.json: 2 additionalOperations left out: 'LINK' of /things (its $ref leads back to itself); "
        "'COPY' of /things (its $ref does not resolve)"
    )
