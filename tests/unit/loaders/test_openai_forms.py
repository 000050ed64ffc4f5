"""OpenAI tool lists in the forms people publish them (twenty-first session): each a catalog or one clear error."""

from __future__ import annotations

import json

import pytest

from kg_tools.errors import CatalogError
from kg_tools.loaders import openai_tools
from kg_tools.loaders.document import detect, load_document, mcp_entries

ORDER = {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}


def params(tool: dict) -> list[tuple]:
    return [(p["name"], p["type"], p["required"]) for p in tool["parameters"]]


@pytest.mark.parametrize(
    "document",
    [
        [{"type": "function", "function": {"name": "get_order", "parameters": ORDER}}],  # Chat Completions
        [{"type": "function", "name": "get_order", "parameters": ORDER, "strict": True}],  # Responses API (flat)
        {"functions": [{"name": "get_order", "parameters": ORDER}]},  # the older `functions` request field
        [{"name": "get_order", "description": "An order.", "input_schema": ORDER}],  # Anthropic
        {"tools": [{"type": "custom", "name": "get_order", "input_schema": ORDER}]},
    ],
    ids=["wrapped", "flat", "functions", "anthropic", "anthropic-custom"],
)
def test_every_form_is_one_catalog(document):
    source = load_document(json.dumps(document), "shop")
    assert source.files == ["request body (openai-tools)"]
    [tool] = source.tools
    assert tool["name"] == "get_order" and params(tool) == [("order_id", "string", True)]
    assert tool["input_schema"] == ORDER


def test_a_flat_function_without_parameters_is_a_function():
    source = load_document(
        json.dumps([{"type": "function", "name": "ping"}, {"name": "get", "parameters": ORDER}]), "x"
    )
    assert [t["name"] for t in source.tools] == ["ping", "get"] and source.tools[0]["parameters"] == []


def test_our_own_catalog_with_an_input_schema_stays_ours():
    tools = [{"name": "get_order", "parameters": [{"name": "order_id", "type": "string"}], "input_schema": ORDER}]
    assert detect(tools) == "json"
    assert detect([{"name": "get_order", "input_schema": ORDER, "depends_on": []}]) == "json"


def test_built_in_tools_are_left_out_with_a_warning():
    document = [
        {"type": "web_search"},
        {"type": "bash_20250124", "name": "bash"},
        {"type": "function", "function": {"name": "get_order", "parameters": ORDER}},
    ]
    source = load_document(json.dumps(document), "x")
    assert [t["name"] for t in source.tools] == ["get_order"]
    assert source.warnings == [
        "tool #0: a built-in 'web_search' tool, not a function: left out",
        "tool #1: a built-in 'bash_20250124' tool, not a function: left out",
    ]
    with pytest.raises(CatalogError, match="no functions"):
        openai_tools.entries([{"type": "code_interpreter"}])


def test_local_refs_in_parameters_are_followed():
    """Pydantic's `$defs`: the parameter gets the referenced schema's type and description; the kept input
    schema is the original; a `$ref` that does not resolve leaves the parameters as they are, with a warning
    naming the tool."""
    schema = {
        "$defs": {"Flight": {"type": "object", "properties": {"flight_id": {"type": "string"}}}},
        "type": "object",
        "properties": {
            "flight": {"$ref": "#/$defs/Flight"},
            "user_id": {"$ref": "#/$defs/UserId"},
            "cabin": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        },
    }
    schema["$defs"]["UserId"] = {"type": "string", "description": "The user's id."}
    [tool] = openai_tools.entries([{"name": "book", "parameters": schema}])
    assert params(tool) == [("flight", "object", False), ("user_id", "string", False), ("cabin", "string", False)]
    assert tool["parameters"][1]["description"] == "The user's id." and tool["input_schema"] == schema
    broken = {"type": "object", "properties": {"x": {"$ref": "#/$defs/Missing"}}}
    warnings: list[str] = []
    [tool] = openai_tools.entries([{"name": "book", "parameters": broken}], warnings)
    assert params(tool) == [("x", None, False)]
    assert warnings == [
        "tool #0 (book): $ref '#/$defs/Missing' does not resolve: its parameters read without following $refs"
    ]


def test_python_type_names_and_the_bfcl_response():
    """The Berkeley function-calling leaderboard's files: `"type": "dict"`, `"float"`, a `response` schema."""
    item = {
        "name": "place_order",
        "parameters": {
            "type": "dict",
            "properties": {"price": {"type": "float"}, "pair": {"type": "tuple"}, "x": {"type": "any"}},
        },
        "response": {"type": "dict", "properties": {"order_id": {"type": "integer"}}},
    }
    [tool] = openai_tools.entries([item])
    assert params(tool) == [("price", "number", False), ("pair", "array", False), ("x", None, False)]
    assert tool["input_schema"]["type"] == "object" and tool["input_schema"]["properties"]["x"] == {}
    assert tool["output_schema"] == {"type": "object", "properties": {"order_id": {"type": "integer"}}}


def test_a_property_named_type_is_a_property():
    schema = {"type": "object", "properties": {"type": {"type": "string", "enum": ["dict", "list"]}}}
    [tool] = openai_tools.entries([{"name": "f", "parameters": schema}])
    assert tool["input_schema"] == schema and params(tool) == [("type", "string", False)]


def test_json_lines_whatever_the_extension(tmp_path):
    """BFCL ships its function lists as JSON lines named `.json`; `.jsonl` too."""
    lines = "\n".join(json.dumps({"name": n, "parameters": ORDER}) for n in ("get_order", "cancel_order")) + "\n"
    for name in ("trading.json", "trading.jsonl"):
        path = tmp_path / name
        path.write_text(lines)
        assert [t["name"] for t in openai_tools.load(path).tools] == ["get_order", "cancel_order"]
    assert [t["name"] for t in load_document(lines, "x").tools] == ["get_order", "cancel_order"]
    with pytest.raises(CatalogError, match="malformed JSON"):
        (tmp_path / "bad.json").write_text('{"name": "a"}\n{"name": \n')
        openai_tools.load(tmp_path / "bad.json")


def test_an_mcp_parameter_behind_a_ref_has_its_type():
    """The same reading for an MCP server's inputSchema (PagerDuty's `request: {$ref: #/$defs/TeamUpdate}`)."""
    schema = {
        "$defs": {"TeamUpdate": {"type": "object", "description": "The team.", "properties": {"name": {}}}},
        "type": "object",
        "properties": {"team_id": {"type": "string"}, "request": {"$ref": "#/$defs/TeamUpdate"}},
    }
    [tool] = mcp_entries({"tools": [{"name": "update_team", "inputSchema": schema}]})
    assert params(tool) == [("team_id", "string", False), ("request", "object", False)]
    assert tool["parameters"][1]["description"] == "The team." and tool["input_schema"] == schema


def test_one_line_json_lines_are_a_one_tool_list(tmp_path):
    """A JSON lines file of one tool is one object: a list of one, like the file with two lines."""
    line = json.dumps({"name": "get_order", "parameters": ORDER}) + "\n"
    for name in ("one.json", "one.jsonl"):
        (tmp_path / name).write_text(line)
        assert [t["name"] for t in openai_tools.load(tmp_path / name).tools] == ["get_order"]
    assert [t["name"] for t in load_document(line, "x").tools] == ["get_order"]
    wrapped = json.dumps({"type": "function", "function": {"name": "get_order", "parameters": ORDER}})
    assert [t["name"] for t in load_document(wrapped, "x").tools] == ["get_order"]
    ours = json.dumps({"name": "a", "parameters": [{"name": "x", "type": "string"}]})
    assert load_document(ours, "x").tools == [json.loads(ours)]


@pytest.mark.parametrize(
    "text, where",
    [
        ('[{"name": "a"}]\n[{"name": "b"}]\n', "a JSON list on line 1"),
        ('{"name": "a"}\n{"name": "b"} {"name": "c"}\n', "two JSON values on line 2"),
        ('{\n  "name": "a"\n}\n{\n  "name": "b"\n}\n', "a JSON value over lines 1-3"),
        ('{"name": "a"}\n\n{"name": "b",\n "parameters": {}}\n', "a JSON value over lines 3-4"),
    ],
    ids=["arrays", "two-on-a-line", "pretty-printed", "split-object"],
)
def test_several_json_values_that_are_not_json_lines_say_so(tmp_path, text, where):
    with pytest.raises(CatalogError, match=f"several JSON values \\({where}\\)"):
        load_document(text, "x")
    (tmp_path / "t.json").write_text(text)
    with pytest.raises(CatalogError, match=f"several JSON values \\({where}\\)"):
        openai_tools.load(tmp_path / "t.json")


def test_yaml_and_single_documents_are_not_json_lines():
    assert load_document("tools:\n  - name: a\n    parameters: []\n", "x").tools == [{"name": "a", "parameters": []}]
    with pytest.raises(CatalogError, match="malformed JSON lines: Expecting value at line 3"):
        load_document('{"name": "a"}\n{"name": \n', "x")
    for blank in ("", "  \n"):  # no document at all is refused, not read as an empty JSON-lines list
        with pytest.raises(CatalogError, match="expected a list of tools"):
            load_document(blank, "x")


def test_a_built_in_tool_with_parameters_is_still_built_in():
    """`detect` and `entries` tell built-ins apart the same way: a built-in's `parameters` do not make it a
    function; a list of built-ins only is an OpenAI list with no functions, whatever the format asked."""
    ws = {"type": "web_search", "name": "ws", "parameters": {"type": "object", "properties": {"q": {}}}}
    document = [ws, {"name": "get_order", "parameters": ORDER}]
    assert detect(document) == "openai-tools"
    source = load_document(json.dumps(document), "x")
    assert [t["name"] for t in source.tools] == ["get_order"]
    assert source.warnings == ["tool #0: a built-in 'web_search' tool, not a function: left out"]
    for only in ([ws], [{"type": "code_interpreter"}, {"type": "web_search"}]):
        assert detect(only) == "openai-tools"
        with pytest.raises(CatalogError, match="the tool list has no functions"):
            load_document(json.dumps(only), "x")


def test_python_type_names_are_read_in_schema_positions_only():
    schema = {
        "type": "dict",
        "properties": {
            "filter": {"type": "dict", "default": {"type": "list"}, "enum": [{"type": "str"}]},
            "rows": {"type": "list", "items": {"type": "int"}, "examples": [{"type": "float"}]},
            "x": {"anyOf": [{"type": "str"}, {"const": {"type": "bool"}}]},
        },
    }
    [tool] = openai_tools.entries([{"name": "f", "parameters": schema}])
    props = tool["input_schema"]["properties"]
    assert props["filter"] == {"type": "object", "default": {"type": "list"}, "enum": [{"type": "str"}]}
    assert props["rows"] == {"type": "array", "items": {"type": "integer"}, "examples": [{"type": "float"}]}
    assert props["x"] == {"anyOf": [{"type": "string"}, {"const": {"type": "bool"}}]}


def test_a_property_named_ref_is_a_property():
    """`$ref` as a property's name is no reference: no warning, its own type; the $refs beside it are followed."""
    schema = {
        "$defs": {"Id": {"type": "integer", "description": "An id."}},
        "type": "object",
        "properties": {"$ref": {"type": "string", "description": "A JSON pointer."}, "id": {"$ref": "#/$defs/Id"}},
    }
    warnings: list[str] = []
    [tool] = openai_tools.entries([{"name": "f", "parameters": schema}], warnings)
    assert warnings == [] and params(tool) == [("$ref", "string", False), ("id", "integer", False)]
    assert tool["parameters"][0]["description"] == "A JSON pointer."
    wrapped = {"$ref": "#/$defs/In", "$defs": {"In": schema, "Id": schema["$defs"]["Id"]}}  # the schema's own $ref
    [tool] = mcp_entries([{"name": "f", "inputSchema": wrapped}], warnings)
    assert warnings == [] and params(tool) == [("$ref", "string", False), ("id", "integer", False)]
