"""OpenAPI import: form-encoded and multipart request bodies become body parameters (their media type kept in
`http.request_media_type`), and operations whose names collide once sanitised and cut to 64 characters each get a
distinct name (the original operationId kept in `http.operation_id`). Made-up specs, no database."""

from __future__ import annotations

import pytest

from kg_tools.errors import CatalogError
from kg_tools.loaders import openapi
from kg_tools.tool_spec import validate_catalog

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"


def _spec(paths: dict) -> dict:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths}


def _tools(paths: dict) -> dict[str, dict]:
    return {t["name"]: t for t in openapi.entries(_spec(paths), "spec.json")}


def _body(content: dict, required: bool = True) -> dict:
    return {"required": required, "content": content}


def _posted(path: str, name: str, media: str, schema: dict) -> tuple[dict, list[tuple]]:
    """The tool of one POST whose body is `schema` as `media`, and its parameters as (name, in, required, type)."""
    tool = _tools({path: {"post": {"operationId": name, "requestBody": _body({media: {"schema": schema}})}}})[name]
    return tool, [(p["name"], p["in"], p["required"], p["type"]) for p in tool["parameters"]]


CHARGE = {
    "type": "object",
    "required": ["customer", "amount"],
    "properties": {
        "customer": {"type": "string", "description": "The id of the customer."},
        "amount": {"type": "integer"},
        "metadata": {"type": "object", "properties": {"order_id": {"type": "string"}}},
    },
}


def test_a_form_encoded_body_gives_body_parameters_and_its_media_type():
    tool, params = _posted("/v1/charges", "PostCharges", FORM, CHARGE)
    assert params == [
        ("customer", "body", True, "string"),
        ("amount", "body", True, "integer"),
        ("metadata", "body", False, "object"),
    ]
    assert tool["http"]["request_media_type"] == FORM
    assert tool["input_schema"]["properties"]["metadata"]["properties"] == {"order_id": {"type": "string"}}
    spec = validate_catalog([tool]).specs[0]
    assert spec.http is not None and spec.http.request_media_type == FORM


def test_a_multipart_upload_keeps_its_binary_part_as_a_string_parameter():
    upload = {
        "type": "object",
        "required": ["file"],
        "properties": {"file": {"type": "string", "format": "binary"}, "purpose": {"type": "string"}},
    }
    tool, params = _posted("/files", "uploadFile", MULTIPART, upload)
    assert params == [
        ("file", "body", True, "string"),
        ("purpose", "body", False, "string"),
    ]
    assert tool["http"]["request_media_type"] == MULTIPART
    assert tool["input_schema"]["properties"]["file"]["format"] == "binary"


def test_json_is_read_first_when_several_media_types_are_offered():
    json_schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    content = {FORM: {"schema": CHARGE}, "application/json; charset=utf-8": {"schema": json_schema}}
    tool = _tools({"/things": {"post": {"operationId": "createThing", "requestBody": _body(content)}}})["createThing"]
    assert [p["name"] for p in tool["parameters"]] == ["name"]
    assert tool["http"]["request_media_type"] == "application/json"
    # a form beside multipart: the form is read
    both = {MULTIPART: {"schema": CHARGE}, FORM: {"schema": json_schema}}
    tool = _tools({"/things": {"post": {"operationId": "createThing", "requestBody": _body(both)}}})["createThing"]
    assert [p["name"] for p in tool["parameters"]] == ["name"] and tool["http"]["request_media_type"] == FORM


def test_an_operation_without_a_body_has_no_media_type_and_other_media_types_stay_unread():
    tools = _tools(
        {
            "/things/{id}": {
                "get": {
                    "operationId": "getThing",
                    "parameters": [{"name": "id", "in": "path", "schema": {"type": "string"}}],
                },
                "put": {
                    "operationId": "putThing",
                    "requestBody": _body({"application/octet-stream": {"schema": {"type": "string"}}}),
                },
            }
        }
    )
    assert "request_media_type" not in tools["getThing"]["http"]
    assert tools["putThing"]["parameters"] == []  # an octet-stream body is no parameters
    assert "request_media_type" not in tools["putThing"]["http"]


def _answered(content: dict) -> dict:
    return _tools({"/things": {"get": {"operationId": "getThings", "responses": {"200": {"content": content}}}}})[
        "getThings"
    ]


def test_a_response_served_as_any_media_type_is_read_as_json_when_no_json_is_offered():
    things = {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}}
    assert _answered({"*/*": {"schema": things}})["output_schema"]["items"]["properties"] == {
        "name": {"type": "string"}
    }
    # JSON offered beside it is read first; other media types alone stay unread
    one = {"type": "object", "properties": {"id": {"type": "string"}}}
    assert _answered({"*/*": {"schema": things}, "application/json": {"schema": one}})["output_schema"]["properties"]
    assert "output_schema" not in _answered({"text/plain": {"schema": things}})


def test_an_unsound_schema_served_as_any_media_type_is_only_not_kept():
    """A `*/*` response is read on a best-effort basis: a schema the loader refuses under JSON leaves the operation
    without an output schema instead of refusing the document."""
    bad = {"type": "object", "properties": {"x": {"anyOf": 5}}}
    assert "output_schema" not in _answered({"*/*": {"schema": bad}})
    with pytest.raises(CatalogError):
        _answered({"application/json": {"schema": bad}})


LONG = "AccountsUsersProductPermissionProfilesV21" + "X" * 30  # 71 characters: longer than a tool name may be


def test_operation_ids_that_share_their_first_64_characters_get_distinct_names():
    paths = {
        "/a": {"get": {"operationId": LONG + "GetUserProductPermissionProfiles"}},
        "/b": {"get": {"operationId": LONG + "GetUserProductPermissionProfilesByEmail"}},
        "/c": {"get": {"operationId": "shortAndAlone"}},
    }
    tools = openapi.entries(_spec(paths), "spec.json")
    names = [t["name"] for t in tools]
    assert len(set(names)) == 3 and "shortAndAlone" in names
    assert all(len(n) <= 64 and n.replace("_", "").replace("-", "").isalnum() for n in names)
    assert [t["http"]["operation_id"] for t in tools[:2]] == [
        LONG + "GetUserProductPermissionProfiles",
        LONG + "GetUserProductPermissionProfilesByEmail",
    ]
    assert all(n.startswith(LONG[:40]) for n in names[:2])
    assert len(validate_catalog(tools).specs) == 3  # raises on a duplicate name
    # stable: the same document gives the same names, and so does the document with its paths in another order
    again = openapi.entries(_spec(dict(reversed(paths.items()))), "spec.json")
    assert sorted(t["name"] for t in again) == sorted(names)


def test_operations_without_operation_id_that_map_to_one_name_get_distinct_names():
    paths = {
        "/users/{id}": {"get": {}},
        "/users/{id}/": {"get": {}},  # a trailing slash: the same name once sanitised
        "/pets": {"get": {}},
    }
    tools = openapi.entries(_spec(paths), "spec.json")
    names = [t["name"] for t in tools]
    assert len(set(names)) == 3
    assert "get_pets" in names  # a name without a collision is as before
    assert all(n.startswith("get_users_id") for n in names[:2])
    assert len(validate_catalog(tools).specs) == 3  # raises on a duplicate name


def test_an_uncut_operation_id_keeps_its_name_beside_a_cut_one_that_collides():
    exact = "y" * 64
    paths = {"/a": {"get": {"operationId": exact}}, "/b": {"get": {"operationId": exact + "ByEmail"}}}
    names = [t["name"] for t in openapi.entries(_spec(paths), "spec.json")]
    assert names[0] == exact and names[1] != exact and len(names[1]) <= 64


def test_an_operation_id_with_no_character_a_name_may_hold_names_the_operation_by_method_and_path():
    """`获取用户` or `____` is a valid operationId that cleans to nothing: the operation is named as one without an
    operationId (the catalog is not rejected), the operationId kept, a warning said (eighteenth session, fuzzing)."""
    paths = {"/users": {"get": {"operationId": "获取用户"}}, "/users/{id}": {"get": {"operationId": "____"}}}
    warnings: list[str] = []
    tools = openapi.entries(_spec(paths), "spec.json", warnings)
    assert [t["name"] for t in tools] == ["get_users", "get_users_id"]
    assert tools[0]["http"]["operation_id"] == "获取用户"
    assert len(warnings) == 2 and "gives no tool name" in warnings[0]
    assert len(validate_catalog(tools).specs) == 2


def test_a_text_or_any_media_type_body_is_read_and_a_value_named_as_the_spec_names_it():
    """`*/*` reads like JSON (an object's properties); a text body is one parameter, a string without a schema,
    named by `x-codegen-request-body-name` when it is no object."""
    tool, params = _posted("/things", "createThing", "*/*", CHARGE)
    assert [p[0] for p in params] == ["customer", "amount", "metadata"] and tool["http"]["request_media_type"] == "*/*"
    tool, params = _posted("/write", "write", "text/plain", {})
    assert params == [("body", "body", True, "string")] and tool["http"]["request_media_type"] == "text/plain"
    tool, params = _posted("/write", "write", "text/csv", CHARGE)  # a text body is sent as it is
    assert params == [("body", "body", True, "object")]
    op = {"operationId": "write", "x-codegen-request-body-name": "lines", "requestBody": _body({"text/plain": {}})}
    assert [p["name"] for p in _tools({"/write": {"post": op}})["write"]["parameters"]] == ["lines"]
