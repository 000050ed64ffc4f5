"""A schema cut to size (`capped_schema`: `_lean`, then `_pruned` by levels) is still a valid JSON Schema: a
keyword whose list the cut empties goes. It used to stay as `[]`, so a nullable type below the cut was stored as
`type: []` (Discord, Mastodon and Lago response schemas) and a catalog our own importer wrote failed the check of
`load json`."""

from __future__ import annotations

import json
import re

import pytest

from kg_tools.errors import CatalogError
from kg_tools.loaders import json_catalog
from kg_tools.loaders.document import load_document
from kg_tools.loaders.json_schema import _lean, _pruned, _schema_problem, capped_schema, check_schema
from kg_tools.tool_spec import MAX_NESTING, MAX_OUTPUT_SCHEMA_CHARS

# An account as Mastodon-style APIs return it: a nullable avatar, an enum, `required`, an allOf-composed part.
ACCOUNT = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "The account id."},
        "avatar": {"type": ["string", "null"], "format": "uri"},
        "role": {"type": "string", "enum": ["admin", "moderator", "user"]},
        "source": {"allOf": [{"type": "object", "properties": {"note": {"type": "string"}}}]},
    },
    "required": ["id", "role"],
}
STATUS = {"type": "object", "properties": {"id": {"type": "string"}, "account": ACCOUNT}, "required": ["id"]}
PAGE = {"type": "object", "properties": {"items": {"type": "array", "items": STATUS}, "next": {"type": "string"}}}


def problem(schema) -> str | None:
    return _schema_problem(schema, "output_schema", MAX_NESTING)


@pytest.mark.parametrize("depth", range(1, 12))
@pytest.mark.parametrize("width", [200, 2])
def test_every_cut_by_levels_is_a_valid_schema(depth, width):
    assert problem(_pruned(PAGE, depth, width)) is None
    assert problem(_lean(PAGE, depth)) is None


def test_a_nullable_type_at_the_limit_goes_not_as_an_empty_list():
    # the account's `avatar` is one level above the limit: its `type` list was emptied to `type: []`, no schema
    cut = _pruned(STATUS, 5, 200)
    assert cut["properties"]["account"]["properties"]["avatar"] == {"format": "uri"}
    assert cut["properties"]["account"]["properties"]["id"] == {"type": "string", "description": "The account id."}
    lean = _lean(STATUS, 5)
    assert lean["properties"]["account"]["properties"]["avatar"] == {}


def test_an_enum_at_the_limit_goes_rather_than_refuse_every_value():
    cut = _pruned(STATUS, 5, 200)
    assert cut["properties"]["account"]["properties"]["role"] == {"type": "string"}  # not `enum: []`
    role = {"type": "string", "enum": ["admin", "moderator", "user"]}  # `_lean` keeps values whole
    assert _lean(STATUS, 5)["properties"]["account"]["properties"]["role"] == role


def test_required_and_all_of_at_the_limit_go():
    cut = _pruned(STATUS, 3, 200)
    account = cut["properties"]["account"]
    assert "required" not in account and account["type"] == "object"  # its properties are cut, `required` too
    assert cut["required"] == ["id"]  # above the limit: kept
    assert "allOf" not in _pruned(ACCOUNT, 3, 200)["properties"]["source"]
    assert _pruned({"required": []}, 1, 10) == {"required": []}  # an empty list as given stays


def test_a_schema_cut_to_size_passes_the_check_and_keeps_its_top_properties():
    schema = {"type": "object", "properties": {f"status_{i}": PAGE for i in range(60)}}
    warnings: list[str] = []
    cut = capped_schema(schema, "GET /timeline: 200 response schema", warnings)
    assert len(json.dumps(cut)) <= MAX_OUTPUT_SCHEMA_CHARS and "schema cut to" in warnings[0]
    assert list(cut["properties"]) == list(schema["properties"])
    check_schema(cut, "GET /timeline", "output_schema")
    assert '"type": []' not in json.dumps(cut)


def test_a_catalog_an_importer_wrote_loads_as_json(tmp_path):
    """What `load openapi` keeps of a large response schema is loaded back by `load json`: the cut used to leave
    the nullable `avatar` one level above it as `type: []`, which the check of `load json` refuses."""
    user = {"type": "object", "properties": {"avatar": {"type": ["string", "null"]}, "id": {"type": "string"}}}
    response = {"type": "object", "properties": {f"user_{i}": user for i in range(200)}}
    ok = {"200": {"description": "ok", "content": {"application/json": {"schema": response}}}}
    spec = {"openapi": "3.0.3", "paths": {"/users": {"get": {"operationId": "users", "responses": ok}}}}
    source = load_document(json.dumps(spec), "social", "openapi")
    assert "schema cut to 5 levels" in source.warnings[0]
    assert source.tools[0]["output_schema"]["properties"]["user_0"]["properties"]["avatar"] == {}
    path = tmp_path / "social.json"
    path.write_text(json.dumps(source.tools))
    assert json_catalog.load(path).tools == source.tools


@pytest.mark.parametrize(
    ("tool", "message"),
    [
        (
            {"name": "get_user", "output_schema": {"properties": {"id": {"anyOf": 5}}}},
            "tool #1 ('get_user'): output_schema/properties/id/anyOf must be a list of schemas, not 5",
        ),
        (
            {"name": "get_user", "input_schema": {"properties": {"id": {"type": []}}}},
            "tool #1 ('get_user'): input_schema/properties/id/type must be a JSON type name or a list of them",
        ),
    ],
)
def test_load_json_checks_each_tools_input_and_output_schema(tmp_path, tool, message):
    good = {"name": "list_users", "input_schema": {"type": "object"}, "output_schema": {"type": "array"}}
    path = tmp_path / "users.json"
    path.write_text(json.dumps([good, tool]))
    with pytest.raises(CatalogError, match="^" + re.escape(f"{path}: {message}")):
        json_catalog.load(path)
    with pytest.raises(CatalogError, match="^request body: tool #1"):
        load_document(json.dumps({"tools": [good, tool]}), "users", "json")
    path.write_text(json.dumps([good, {"name": "draft3", "output_schema": {"required": True}}]))
    assert len(json_catalog.load(path).tools) == 2  # what the importers tolerate is tolerated
