"""Odd and broken Swagger 2.0 documents (the twentieth session's fuzzing, condensed): each loads or is refused
with one CatalogError that speaks the document's own terms and says which operation it is about."""

from __future__ import annotations

import copy

import pytest

from kg_tools.errors import CatalogError
from kg_tools.loaders import openapi
from kg_tools.loaders.json_catalog import load as load_json_catalog

OK = {"200": {"description": "ok", "schema": {"$ref": "#/definitions/Pet"}}}
PET = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
BASE = {
    "swagger": "2.0",
    "info": {"title": "t", "version": "1"},
    "definitions": {"Pet": PET},
    "paths": {"/pets/{pet_id}": {"get": {"operationId": "getPet", "responses": OK}}},
}


def swagger(**changes) -> dict:
    return copy.deepcopy(BASE) | changes


def post(*parameters, **extra) -> dict:
    return {"/p": {"post": {"operationId": "op", "parameters": list(parameters), "responses": OK, **extra}}}


def tools(document: dict) -> dict[str, dict]:
    return {t["name"]: t for t in openapi.entries(document, "x.json", [])}


@pytest.mark.parametrize(
    "document",
    [
        swagger(definitions=[1, 2]),  # not an object: the response $ref does not resolve, a warning
        swagger(definitions={"Pet": {"$ref": "#/definitions/Dog"}, "Dog": {"$ref": "#/definitions/Pet"}}),
        swagger(definitions={"Pet": {"type": "object", "properties": {"up": {"$ref": "#/definitions/Pet"}}}}),
        swagger(paths=post({"name": "a", "in": "body", "schema": PET}, {"name": "b", "in": "body", "schema": PET})),
        swagger(paths=post({"name": "tag", "in": "query", "type": "array", "collectionFormat": "multi"})),
        swagger(paths=post({"name": "f", "in": "formData", "type": "file"}, consumes=["multipart/form-data"])),
        swagger(produces=["application/xml"]),
        swagger(paths={"/p": {"get": {"responses": {"default": {"description": "x", "schema": PET}}}}}),
        swagger(schemes=["https", "wss"]),
        swagger(
            **{"x-a": {"$ref": "#/definitions/Nope"}}, paths={"x-b": 1, "/p": {"get": {"x-c": 2, "responses": OK}}}
        ),
        swagger(paths={f"/r{i}/{{id}}": {"get": {"operationId": f"r{i}", "responses": OK}} for i in range(3000)}),
    ],
)
def test_odd_but_valid_documents_load(document):
    assert tools(document)


def test_a_form_file_is_a_binary_string_and_multi_an_array():
    found = tools(
        swagger(
            paths=post(
                {"name": "file", "in": "formData", "type": "file", "required": True},
                {
                    "name": "tag",
                    "in": "query",
                    "type": "array",
                    "items": {"type": "string"},
                    "collectionFormat": "multi",
                },
                consumes=["multipart/form-data"],
            )
        )
    )["op"]
    assert found["http"]["request_media_type"] == "multipart/form-data"
    assert found["input_schema"]["properties"]["file"] == {"type": "string", "format": "binary"}
    assert found["input_schema"]["properties"]["tag"] == {"type": "array", "items": {"type": "string"}}


def test_global_parameters_referenced_from_a_path_item_reach_each_operation():
    document = swagger(
        parameters={
            "Id": {"name": "pet_id", "in": "path", "required": True, "type": "string"},
            "Body": {"name": "pet", "in": "body", "schema": {"$ref": "#/definitions/Pet"}},
        },
        paths={
            "/pets/{pet_id}": {
                "parameters": [{"$ref": "#/parameters/Id"}, {"$ref": "#/parameters/Body"}],
                "put": {"operationId": "put", "responses": OK},
            }
        },
    )
    assert [(p["name"], p["in"]) for p in tools(document)["put"]["parameters"]] == [
        ("pet_id", "path"),
        ("id", "body"),
        ("name", "body"),
    ]


def test_a_percent_encoded_ref_resolves():
    document = swagger(definitions={"Pet Row": PET}, paths={"/p": {"get": {"responses": {"200": {
        "description": "ok", "schema": {"$ref": "#/definitions/Pet%20Row"}}}}}})  # fmt: skip
    assert tools(document)["get_p"]["output_schema"]["title"] == "Pet Row"


def test_a_missing_definition_is_named_as_the_document_names_it():
    warnings: list[str] = []
    openapi.entries(swagger(definitions={}), "x.json", warnings)
    assert "$ref '#/definitions/Pet' does not resolve" in warnings[-1] and "components" not in warnings[-1]


@pytest.mark.parametrize(
    "document, message",
    [
        (
            swagger(paths={"/p": {"$ref": "#/paths/~1nope"}}),
            "the document has no operations (its $ref '#/paths/~1nope' does not resolve)",
        ),
        (swagger(paths=post({"name": "b", "in": "body"})), "POST /p: body parameter 'b' has no schema"),
        (swagger(paths=post({"in": "formData", "type": "string"})), "POST /p: a formData parameter needs a name"),
        ({k: v for k, v in BASE.items() if k != "paths"}, "the document has no operations"),
        (swagger(paths=[1]), "'paths' must be an object"),
        (None, "an OpenAPI document must be an object (the text is empty)"),
        # s23rev's mutation fuzzing: each raised TypeError (an unhashable name or $ref, parameters not a list)
        (
            swagger(paths=post({"name": [1], "in": "formData", "type": "string"})),
            "POST /p: a formData parameter needs a name",
        ),
        (
            swagger(
                paths={"/p": {"parameters": [{"name": [1], "in": "path", "type": "string"}], "get": {"responses": OK}}}
            ),
            "GET /p: a parameter needs a name and 'in' (path, query, header, cookie, querystring): got name [1], in 'path'",
        ),
        (
            {"openapi": "3.0.0", "paths": {"/p": {"parameters": True, "get": {"responses": {}}}}},
            "GET /p: 'parameters' must be a list, not true or false",
        ),
        (
            {"openapi": "3.0.0", "paths": {"/p": {"get": {"responses": {"200": {"$ref": ["x"]}}}}}},
            "only local $refs ('#/...') are supported, got ['x'] (in GET /p)",
        ),
        ([BASE], "an OpenAPI document must be an object (not a list)"),
    ],
)
def test_a_broken_document_is_one_error_in_its_own_terms(document, message):
    with pytest.raises(CatalogError) as exc:
        openapi.entries(document, "x.json", [])
    assert str(exc.value) == f"x.json: {message}"


@pytest.mark.parametrize(
    "document, ref, place",
    [
        (swagger(paths=post({"name": "b", "in": "body", "schema": {"$ref": "#/definitions/Nope"}})), "#/definitions/Nope", "POST /p"),
        (swagger(paths={"/p": {"parameters": [{"$ref": "#/parameters/Nope"}], "get": {"responses": OK}}}), "#/parameters/Nope", "GET /p"),
        (swagger(paths={"/p": {"get": {"responses": {"200": {"$ref": "#/responses/Nope"}}}}}), "#/responses/Nope", "GET /p"),
    ],
)  # fmt: skip
def test_a_dangling_ref_is_warned_in_the_documents_own_terms(document, ref, place):
    warnings: list[str] = []
    assert openapi.entries(document, "x.json", warnings)
    assert f"x.json: $ref '{ref}' does not resolve (the document holds nothing there)" in warnings[-1]
    assert warnings[-1].endswith(f"in 1 operation ({place})") and "components" not in warnings[-1]


def test_an_openapi_3_error_says_which_operation_too():
    document = {"openapi": "3.0.0", "paths": {"/p": {"get": {"responses": {"200": {"$ref": "other.json#/x"}}}}}}
    with pytest.raises(CatalogError, match=r"^x.json: only local \$refs .* \(in GET /p\)$"):
        openapi.entries(document, "x.json")


def test_a_file_that_is_not_utf8_is_refused_by_name(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes('swagger: "2.0"\ninfo: {title: "caf\u00e9"}\n'.encode("latin-1"))
    with pytest.raises(CatalogError, match=rf"^{path}: not UTF-8 text \(invalid continuation byte at byte \d+\)$"):
        openapi.load(path)


def test_a_json_lines_catalog_that_is_not_utf8_is_refused_by_name_too(tmp_path):
    path = tmp_path / "tools.jsonl"
    path.write_bytes('{"name": "caf\u00e9"}\n'.encode("latin-1"))
    with pytest.raises(CatalogError, match=rf"^{path}: not UTF-8 text \(invalid continuation byte at byte \d+\)$"):
        load_json_catalog(path)
