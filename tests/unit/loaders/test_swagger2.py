"""Swagger 2.0 documents converted to OpenAPI 3.0 in-process (loaders/swagger2.py) and loaded like any spec."""

from __future__ import annotations

import copy
import json

import pytest

from kg_tools.errors import CatalogError
from kg_tools.loaders import openapi, swagger2
from kg_tools.loaders.document import load_document
from tests.support.cli_process import kg_tools_process

PET = {
    "type": "object",
    "required": ["id"],
    "properties": {
        "id": {"type": "integer", "format": "int64"},
        "owner": {"$ref": "#/definitions/Owner", "description": "ignored beside a $ref"},
        "tag": {"type": "string", "x-nullable": True},
        "kind": {"type": ["string", "null"], "example": {"type": "file"}},
    },
}
SWAGGER = {
    "swagger": "2.0",
    "info": {"title": "Pets", "version": "1"},
    "host": "api.example.com",
    "basePath": "/v1",
    "schemes": ["https", "http"],
    "consumes": ["application/json"],
    "definitions": {
        "Pet": PET,
        "Owner": {"type": "object", "properties": {"owner_id": {"type": "string"}, "pets": {"type": "array"}}},
        "Pets": {"type": "array", "items": {"$ref": "#/definitions/Pet"}},
    },
    "parameters": {
        "PetId": {"name": "pet_id", "in": "path", "required": True, "type": "integer"},
        "NewPet": {"name": "pet", "in": "body", "required": True, "schema": {"$ref": "#/definitions/Pet"}},
    },
    "responses": {"OnePet": {"description": "a pet", "schema": {"$ref": "#/definitions/Pet"}}},
    "securityDefinitions": {
        "basic": {"type": "basic"},
        "key": {"type": "apiKey", "name": "X-Key", "in": "header"},
        "oauth": {
            "type": "oauth2",
            "flow": "accessCode",
            "authorizationUrl": "https://a.example.com/auth",
            "tokenUrl": "https://a.example.com/token",
            "scopes": {"read": "read pets"},
        },
    },
    "paths": {
        "/pets": {
            "get": {
                "operationId": "listPets",
                "produces": ["application/json", "application/xml"],
                "parameters": [
                    {"name": "tags", "in": "query", "type": "array", "items": {"type": "string"}},
                    {
                        "name": "status",
                        "in": "query",
                        "type": "string",
                        "enum": ["a", "b"],
                        "collectionFormat": "multi",
                    },
                ],
                "responses": {"200": {"description": "ok", "schema": {"$ref": "#/definitions/Pets"}}},
            },
            "post": {
                "operationId": "createPet",
                "parameters": [{"$ref": "#/parameters/NewPet"}],
                "responses": {"201": {"$ref": "#/responses/OnePet"}},
            },
        },
        "/pets/{pet_id}": {
            "parameters": [{"$ref": "#/parameters/PetId"}],
            "get": {"operationId": "getPet", "responses": {"200": {"$ref": "#/responses/OnePet"}}},
            "put": {
                "operationId": "updatePet",
                "consumes": ["application/merge-patch+json"],
                "parameters": [{"name": "body", "in": "body", "schema": {"$ref": "#/definitions/Pet"}}],
                "responses": {"200": {"description": "ok", "schema": {"$ref": "#/definitions/Pet"}}},
            },
        },
        "/pets/{pet_id}/photo": {
            "post": {
                "operationId": "uploadPhoto",
                "consumes": ["multipart/form-data"],
                "parameters": [
                    {"$ref": "#/parameters/PetId"},
                    {"name": "file", "in": "formData", "type": "file", "required": True},
                    {"name": "caption", "in": "formData", "type": "string", "description": "Shown below."},
                ],
                "responses": {"200": {"description": "no schema"}},
            }
        },
        "/pets/{pet_id}/vote": {
            "post": {
                "operationId": "vote",
                "parameters": [
                    {"$ref": "#/parameters/PetId"},
                    {"name": "stars", "in": "formData", "type": "integer", "x-unit": "star"},
                ],
                "responses": {"204": {"description": "done"}},
            }
        },
    },
}


def converted() -> dict:
    return swagger2.convert(copy.deepcopy(SWAGGER))


def test_definitions_become_component_schemas_and_every_ref_follows():
    out = converted()
    schemas = out["components"]["schemas"]
    assert out["openapi"] == "3.0.0" and "definitions" not in out and "swagger" not in out
    assert schemas["Pets"]["items"] == {"$ref": "#/components/schemas/Pet"}  # nested definitions
    assert schemas["Pet"]["properties"]["owner"] == {"$ref": "#/components/schemas/Owner"}  # siblings dropped
    assert schemas["Pet"]["properties"]["tag"] == {"type": "string", "nullable": True}  # x-nullable
    assert schemas["Pet"]["properties"]["kind"] == {"type": "string", "nullable": True, "example": {"type": "file"}}
    assert schemas["Owner"]["properties"]["pets"] == {"type": "array", "items": {}}
    assert out["components"]["parameters"] == {
        "PetId": {"name": "pet_id", "in": "path", "required": True, "schema": {"type": "integer"}}
    }
    assert out["paths"]["/pets/{pet_id}"]["parameters"] == [{"$ref": "#/components/parameters/PetId"}]
    assert out["components"]["responses"]["OnePet"]["content"] == {
        "*/*": {"schema": {"$ref": "#/components/schemas/Pet"}}
    }
    assert out["paths"]["/pets/{pet_id}"]["get"]["responses"]["200"] == {"$ref": "#/components/responses/OnePet"}


def test_host_base_path_and_schemes_become_servers():
    assert converted()["servers"] == [{"url": "https://api.example.com/v1"}, {"url": "http://api.example.com/v1"}]
    assert swagger2.convert({"swagger": "2.0", "basePath": "/api", "paths": {}})["servers"] == [{"url": "/api"}]
    assert swagger2.convert({"swagger": "2.0", "paths": {}})["servers"] == [{"url": "/"}]


def test_a_body_parameter_becomes_the_request_body_under_each_media_type_consumed():
    paths = converted()["paths"]
    assert paths["/pets"]["post"]["requestBody"] == {  # a document-level body parameter, by $ref
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}},
        "required": True,
    }
    assert "parameters" not in paths["/pets"]["post"]
    put = paths["/pets/{pet_id}"]["put"]["requestBody"]  # the operation's own consumes wins
    assert put == {"content": {"application/merge-patch+json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}


def test_form_data_parameters_become_one_form_body():
    paths = converted()["paths"]
    upload = paths["/pets/{pet_id}/photo"]["post"]
    assert upload["parameters"] == [{"$ref": "#/components/parameters/PetId"}]
    assert upload["requestBody"] == {
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "file": {"type": "string", "format": "binary"},
                        "caption": {"type": "string", "description": "Shown below."},
                    },
                    "required": ["file"],
                }
            }
        },
        "required": True,
    }
    vote = paths["/pets/{pet_id}/vote"]["post"]["requestBody"]  # no multipart consumed: URL-encoded
    assert vote == {
        "content": {
            "application/x-www-form-urlencoded": {
                "schema": {"type": "object", "properties": {"stars": {"type": "integer", "x-unit": "star"}}}
            }
        }
    }


def test_parameter_types_become_schemas_and_responses_content_by_produces():
    get = converted()["paths"]["/pets"]["get"]
    tags, status = get["parameters"]
    assert tags == {
        "name": "tags",
        "in": "query",
        "schema": {"type": "array", "items": {"type": "string"}},
        "style": "form",
        "explode": False,
    }
    assert status == {"name": "status", "in": "query", "schema": {"type": "string", "enum": ["a", "b"]}}
    assert set(get["responses"]["200"]["content"]) == {"application/json", "application/xml"}


def test_a_parameter_without_a_type_keeps_the_schema_it_declares():
    document = {
        "swagger": "2.0",
        "paths": {
            "/a/{id}": {
                "get": {
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}},
                        {"name": "q", "in": "query"},
                    ],
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    by_id, untyped = swagger2.convert(document)["paths"]["/a/{id}"]["get"]["parameters"]
    assert by_id == {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
    assert untyped["schema"] == {"type": "string"}  # neither a type nor a schema: a string, as swagger2openapi -p


def test_an_operations_own_body_parameter_wins_over_the_path_items():
    def body(name: str) -> dict:
        return {"name": name, "in": "body", "schema": {"type": "object", "properties": {name: {"type": "string"}}}}

    document = {
        "swagger": "2.0",
        "paths": {"/a": {"parameters": [body("old")], "post": {"parameters": [body("new")], "responses": {}}}},
    }
    request = swagger2.convert(document)["paths"]["/a"]["post"]["requestBody"]
    assert request["content"]["application/json"]["schema"]["properties"] == {"new": {"type": "string"}}


def test_security_definitions_become_security_schemes():
    schemes = converted()["components"]["securitySchemes"]
    assert schemes["basic"] == {"type": "http", "scheme": "basic"}
    assert schemes["key"] == {"type": "apiKey", "name": "X-Key", "in": "header"}
    assert schemes["oauth"] == {
        "type": "oauth2",
        "flows": {
            "authorizationCode": {
                "authorizationUrl": "https://a.example.com/auth",
                "tokenUrl": "https://a.example.com/token",
                "scopes": {"read": "read pets"},
            }
        },
    }


def test_the_input_document_is_not_changed():
    document = copy.deepcopy(SWAGGER)
    swagger2.convert(document)
    assert document == SWAGGER


def test_a_swagger_document_loads_as_its_openapi_equivalent_with_a_note():
    warnings: list[str] = []
    tools = {t["name"]: t for t in openapi.entries(copy.deepcopy(SWAGGER), "pets.json", warnings)}
    assert warnings == ["pets.json: converted from Swagger 2.0 to OpenAPI 3.0 in-process (as swagger2openapi does)"]
    assert tools == {t["name"]: t for t in openapi.entries(converted(), "pets.json")}
    create = tools["createPet"]
    assert [(p["name"], p["in"], p["required"]) for p in create["parameters"]] == [("id", "body", True)] + [
        (name, "body", False) for name in ("owner", "tag", "kind")
    ]
    assert create["http"]["request_media_type"] == "application/json"
    assert create["output_schema"]["title"] == "Pet"  # the response read from `*/*` (no produces)
    assert tools["listPets"]["output_schema"]["items"]["properties"]["owner"]["properties"]["owner_id"] == {
        "type": "string"
    }
    assert tools["uploadPhoto"]["http"]["request_media_type"] == "multipart/form-data"
    assert tools["getPet"]["parameters"][0]["name"] == "pet_id"
    source = load_document(json.dumps(SWAGGER), "pets")  # `format=auto` tells a Swagger document apart
    assert [t["name"] for t in source.tools] == list(tools) and source.warnings == [
        "request body: converted from Swagger 2.0 to OpenAPI 3.0 in-process (as swagger2openapi does)"
    ]


@pytest.mark.parametrize(
    "document, message",
    [
        (
            {"swaggerVersion": "1.2", "apis": []},
            "only OpenAPI 3.0/3.1/3.2 and Swagger 2.0 are supported (found swagger 1.2)",
        ),
        ({"swagger": "3.0", "paths": {}}, "(found swagger 3.0)"),
        ({"swagger": "2.0", "paths": []}, "'paths' must be an object"),
        ({"swagger": "2.0", "paths": {}}, "the document has no operations"),
        (
            {"swagger": "2.0", "paths": {"/a": {"post": {"parameters": [{"name": "b", "in": "body"}]}}}},
            "POST /a: body parameter 'b' has no schema",
        ),
        (
            {"swagger": "2.0", "paths": {"/a": {"$ref": "#/x-paths/a"}}},
            "no operations (its $ref '#/x-paths/a' does not resolve)",
        ),
    ],
)
def test_a_document_that_cannot_load_says_why(document, message):
    with pytest.raises(CatalogError, match="^x.json: ") as exc:
        openapi.entries(document, "x.json")
    assert message in str(exc.value)
    with pytest.raises(CatalogError):
        load_document(json.dumps(document), "x")


def test_the_cli_loads_a_swagger_file_up_to_neo4j_and_refuses_swagger_1(tmp_path):
    path = tmp_path / "pets.json"
    path.write_text(json.dumps(SWAGGER))
    done = kg_tools_process("load", "openapi", str(path), timeout=60)  # no Neo4j listens: converted, then not written
    said = done.stdout + done.stderr
    assert f"warning: {path}: converted from Swagger 2.0" in said and "Neo4j is not reachable" in said, said
    assert done.returncode == 1 and "Traceback" not in said
    path.write_text(json.dumps({"swaggerVersion": "1.2", "apis": []}))
    done = kg_tools_process("load", "openapi", str(path), timeout=60)
    assert done.returncode == 2 and done.stderr.strip() == (
        f"error: {path}: only OpenAPI 3.0/3.1/3.2 and Swagger 2.0 are supported (found swagger 1.2)"
    )


def _one_body(body: dict, consumes: list[str] | None = None, path: str = "/things/{id}/note") -> list[tuple]:
    """The parameters (name, in, type, required, description) of a PUT whose Swagger 2.0 body parameter is `body`."""
    op = {"operationId": "setNote", "parameters": [{"name": "id", "in": "path", "required": True, "type": "string"}]}
    op["parameters"].append(body)
    document = {"swagger": "2.0", "paths": {path: {"put": op | ({"consumes": consumes} if consumes else {})}}}
    tool = openapi.entries(document, "spec.json")[0]
    assert set(tool["input_schema"]["properties"]) == {p["name"] for p in tool["parameters"]}
    return [(p["name"], p["in"], p["type"], p["required"], p["description"]) for p in tool["parameters"]]


NOTE = {"name": "note", "in": "body", "required": True, "description": "The note", "schema": {"type": "string"}}


def test_a_body_parameter_that_is_one_value_keeps_its_name_under_any_json_or_text_media_type():
    """A body parameter whose schema is a bare `type: string` (no object) is a parameter of the tool named as the
    spec names it (the conversion keeps it as `x-codegen-request-body-name`), sent as JSON or as text/plain."""
    note = ("note", "body", "string", True, "The note")
    assert _one_body(NOTE)[1:] == [note]  # consumes unset: application/json
    assert _one_body(NOTE, ["text/plain; charset=utf-8"])[1:] == [note]
    assert _one_body(NOTE, ["*/*"])[1:] == [note]
    listed = {**NOTE, "schema": {"type": "array", "items": {"type": "string"}}}
    assert _one_body(listed)[1][:3] == ("note", "body", "array")
    # a file stays unread; an object keeps `body` (its properties are the request's fields); a name a path
    # parameter has, or no name, gives `body`
    assert _one_body(NOTE, ["application/octet-stream"])[1:] == []
    all_of = {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]}
    assert _one_body({**NOTE, "schema": all_of})[1][0] == "body"
    assert _one_body({**NOTE, "name": "id"})[1][0] == "body"
    assert _one_body({**NOTE, "name": ""})[1][0] == "body"


def test_the_body_parameters_name_is_kept_on_the_converted_operation():
    put = converted()["paths"]["/pets/{pet_id}"]["put"]
    assert put["x-codegen-request-body-name"] == "body"
    assert converted()["paths"]["/pets"]["post"]["x-codegen-request-body-name"] == "pet"  # by $ref
    assert "x-codegen-request-body-name" not in converted()["paths"]["/pets/{pet_id}/vote"]["post"]  # a form


def test_a_body_beside_a_parameter_named_body_is_kept_under_another_name():
    """Twenty-sixth session (review): a query parameter `body` beside a body that keeps `body` (an object, or a name
    taken) dropped the whole request body; now it is `body_2` (`body_3` when that is taken too)."""
    query = {"name": "body", "in": "query", "type": "string"}
    all_of = {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]}
    got = _one_body({**NOTE, "name": "id", "schema": all_of}, path="/things/{id}/note")
    assert [p[0] for p in got] == ["id", "body"]
    op = {"operationId": "setNote", "parameters": [query, {**query, "name": "body_2"}, {**NOTE, "schema": all_of}]}
    tool = openapi.entries({"swagger": "2.0", "paths": {"/n": {"put": op}}}, "spec.json")[0]
    assert [(p["name"], p["in"]) for p in tool["parameters"]] == [
        ("body", "query"),
        ("body_2", "query"),
        ("body_3", "body"),
    ]
    assert set(tool["input_schema"]["properties"]) == {"body", "body_2", "body_3"}
