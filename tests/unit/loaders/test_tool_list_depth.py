"""A tool list's input schema nested deeper than a tool may hold (loaders/json_schema.py `nesting_capped`, twenty-second
session): MCP `tools/list` documents (the REST import, `load json`, the live importer) and OpenAI tool lists cut it as
the OpenAPI loader cuts its schemas, with a warning naming the tool, where they refused the whole list. A document
nested too deep to parse keeps its one-line error. Also `{"$ref": "#"}`, the whole document, warned as what it is."""

from __future__ import annotations

import json

import pytest

from kg_tools.errors import CatalogError
from kg_tools.loaders import json_catalog, openai_tools
from kg_tools.loaders.document import load_document
from kg_tools.loaders.json_schema import SCHEMA_NESTING, capped_schema, nesting_capped
from kg_tools.tool_spec import MAX_NESTING, nesting_depth, validate_catalog


def _nested(objects: int) -> dict:
    """An object schema holding `objects` objects one inside the other (two JSON levels each) and an `id`."""
    schema: dict = {"type": "object", "properties": {"id": {"type": "string"}}}
    for _ in range(objects):
        schema = {"type": "object", "properties": {"inner": schema}}
    return schema


DEEP = _nested(40)  # 83 levels
MCP = {
    "tools": [
        {"name": "put_tree", "inputSchema": {**DEEP, "required": ["inner"]}},
        {"name": "get_tree", "inputSchema": {}},
    ]
}
OPENAI = [{"type": "function", "function": {"name": "put_tree", "parameters": DEEP}}]


def _fits(source) -> dict:
    """The deep tool, once the catalog validates (what was refused before)."""
    validate_catalog(source.tools)
    tool = source.tools[0]
    assert nesting_depth(tool["input_schema"]) <= SCHEMA_NESTING < nesting_depth(DEEP)
    assert [p["name"] for p in tool["parameters"]] == ["inner"]  # read from the whole schema, before the cut
    return tool


def test_an_mcp_tool_list_cuts_a_deep_input_schema_and_names_the_tool():
    source = load_document(json.dumps(MCP), "trees")
    assert _fits(source)["parameters"][0]["required"] is True
    assert len(source.tools) == 2
    assert len(source.warnings) == 1
    assert source.warnings[0].startswith("MCP tool 'put_tree': input schema: schema cut to ")
    assert f"and {SCHEMA_NESTING} levels)" in source.warnings[0]  # why: its depth, not its size


def test_load_json_of_an_mcp_dump_cuts_it_too(tmp_path):
    path = tmp_path / "trees.json"
    path.write_text(json.dumps(MCP))
    source = json_catalog.load(path)
    _fits(source)
    assert any("MCP tool 'put_tree': input schema: schema cut" in w for w in source.warnings)


def test_an_openai_tool_list_cuts_a_deep_input_schema_and_names_the_tool(tmp_path):
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(OPENAI))
    source = openai_tools.load(path)
    _fits(source)
    assert source.warnings[0].startswith("tool #0 (put_tree): input schema: schema cut to ")


def test_a_schema_a_tool_can_hold_is_kept_as_it_is():
    """Up to SCHEMA_NESTING levels (the tool's own level makes MAX_NESTING): the same object, no warning."""
    warnings: list[str] = []
    schema = _nested(30)  # 63 levels
    assert nesting_depth(schema) == SCHEMA_NESTING == MAX_NESTING - 1
    assert nesting_capped(schema, "MCP tool 'a'", warnings) is schema and not warnings
    source = load_document(json.dumps({"tools": [{"name": "a", "inputSchema": schema}]}), "c")
    assert source.tools[0]["input_schema"] == schema and not source.warnings
    validate_catalog(source.tools)


def test_a_schema_of_exactly_max_nesting_levels_is_cut_so_its_tool_validates():
    """64 levels passed the cut and made a 65-level tool, refused (OpenAPI input and output schemas alike)."""
    schema = {"type": "object", "properties": {"tags": {"type": "array", "items": _nested(29)}}}
    assert nesting_depth(schema) == MAX_NESTING
    warnings: list[str] = []
    cut = capped_schema(schema, "GET /a: input schema", warnings)
    assert nesting_depth(cut) <= SCHEMA_NESTING and "schema cut to" in warnings[0]
    validate_catalog([{"name": "a", "input_schema": cut, "output_schema": cut}])


@pytest.mark.parametrize("kind", ["mcp", "openai"])
def test_a_document_too_deep_to_parse_keeps_its_one_line_error(tmp_path, kind):
    too_deep = _nested(70)  # 143 levels: past what a document may nest (2 * MAX_NESTING)
    document = {"tools": [{"name": "a", "inputSchema": too_deep}]} if kind == "mcp" else [{"parameters": too_deep}]
    with pytest.raises(CatalogError, match=r"nested more than 128 levels deep$") as caught:
        load_document(json.dumps(document), "c")
    assert "\n" not in str(caught.value) and not caught.value.problems


def test_a_reference_to_the_whole_document_is_warned_as_such():
    """`{"$ref": "#"}` is local (the schema itself): not called a non-local reference."""
    schema = {"type": "object", "properties": {"parent": {"$ref": "#"}, "id": {"type": "string"}}}
    source = load_document(json.dumps({"tools": [{"name": "a", "inputSchema": schema}]}), "c")
    assert source.warnings == [
        "MCP tool 'a': $ref '#' is the whole document, not a part of it ('#/...'): "
        "its parameters read without following $refs"
    ]
    assert [p["name"] for p in source.tools[0]["parameters"]] == ["parent", "id"]
