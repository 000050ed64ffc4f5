"""`kg-tools load json` on documents of other formats; OpenAI list errors name the file; type lists (s22rev)."""

from __future__ import annotations

import json
import re

import pytest

from kg_tools.errors import CatalogError
from kg_tools.loaders import json_catalog, openai_tools
from kg_tools.loaders.document import load_document


def test_an_mcp_tool_list_keeps_its_parameters(tmp_path):
    path = tmp_path / "server.json"
    schema = {"type": "object", "properties": {"repo": {"type": "string"}}, "required": ["repo"]}
    path.write_text(json.dumps({"tools": [{"name": "get_repo", "description": "A repo.", "inputSchema": schema}]}))
    source = json_catalog.load(path)
    assert [p["name"] for p in source.tools[0]["parameters"]] == ["repo"]  # was: loaded with none
    assert "MCP tools/list" in source.warnings[0]


def test_a_saved_json_rpc_answer_of_tools_list_loads_as_its_result(tmp_path):
    """s23rev: `{"jsonrpc": "2.0", "id": 1, "result": {"tools": [...]}}` (an answer saved as it came) was refused as
    no list of tools; one page of a paginated list says so."""
    path = tmp_path / "dump.json"
    tool = {"name": "get_repo", "inputSchema": {"type": "object", "properties": {"repo": {"type": "string"}}}}
    path.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool], "nextCursor": "p2"}}))
    source = json_catalog.load(path)
    assert [p["name"] for p in source.tools[0]["parameters"]] == ["repo"]
    assert "nextCursor ('p2'): the server's other pages are not in it" in source.warnings[-1]
    assert load_document(path.read_text(), "dump").tools == source.tools


def test_a_saved_json_rpc_answer_of_no_tools_loads_empty_as_load_document_reads_it(tmp_path):
    """s25rev2: `kg-tools load json` refused `{"result": {"tools": []}}`, saying its result had no 'tools' list
    (its keys: tools), where `{"tools": []}` and the REST API's load_document read no tools."""
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}))
    assert json_catalog.load(path).tools == [] == load_document(path.read_text(), "dump").tools


def test_a_saved_json_rpc_error_answer_is_refused_saying_so(tmp_path):
    path = tmp_path / "dump.json"
    path.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}))
    with pytest.raises(CatalogError, match=r"'tools' list \(a JSON-RPC error answer: -32601 Method not found\)$"):
        json_catalog.load(path)
    with pytest.raises(CatalogError, match=r"MCP tool list \(a JSON-RPC error answer: -32601 Method not found\)$"):
        load_document(path.read_text(), "dump")


@pytest.mark.parametrize(
    "answer, said",
    [
        ({"error": "boom"}, "a JSON-RPC error answer: boom"),
        ({"error": {}}, "a JSON-RPC error answer: no code, no message"),
        ({"result": {"content": [], "isError": False}}, "its keys: content, isError"),
        ({"result": {}}, "its keys: none"),
        ({"result": None}, 'a JSON-RPC answer with no result, not a tools/list answer\'s {"tools": [...]}'),
        ({}, "with no result"),
        ({"result": [{"name": "a"}]}, "with a result that is a list, not"),
        ({"result": "ok"}, "with a result that is a string, not"),
        ({"result": {"tools": {}}}, "whose result's 'tools' is an object, not the list"),  # was: its keys: tools
        ({"result": {"tools": None}}, "whose result's 'tools' is null, not the list"),
    ],
)
def test_a_saved_json_rpc_answer_of_no_tool_list_says_what_it_is(answer, said):
    """s24rev fuzzing: an error that is no object, or a tools/call answer saved for a tools/list one, was refused
    without a word of what it was."""
    document = json.dumps({"jsonrpc": "2.0", "id": 1} | answer)
    with pytest.raises(CatalogError, match=re.escape(said)):
        load_document(document, "dump")
    with pytest.raises(CatalogError, match=re.escape(said)):
        load_document(document, "dump", "mcp")


@pytest.mark.parametrize(
    "document, command",
    [
        ([{"type": "function", "function": {"name": "a", "parameters": {}}}], "openai-tools"),
        ({"openapi": "3.0.0", "paths": {}}, "openapi"),
    ],
)
def test_another_format_is_refused_with_the_command_that_reads_it(tmp_path, document, command):
    path = tmp_path / "other.json"
    path.write_text(json.dumps(document))
    with pytest.raises(CatalogError, match=f"load it with `kg-tools load {command}`"):
        json_catalog.load(path)


def test_our_own_catalog_is_read_as_before(tmp_path):
    path = tmp_path / "ours.json"
    path.write_text(json.dumps([{"name": "a", "description": "", "parameters": []}]))
    assert json_catalog.load(path).tools == [{"name": "a", "description": "", "parameters": []}]


@pytest.mark.parametrize("text", ["[]", "42", '[{"type": "function"}]', '[{"name": "a", "parameters": "x"}]'])
def test_an_openai_list_error_names_the_file(tmp_path, text):
    path = tmp_path / "tools.json"
    path.write_text(text)
    with pytest.raises(CatalogError, match=f"^{path}: "):
        openai_tools.load(path)


def test_a_list_of_python_type_names_is_read_as_json_types():
    schema = {"type": "dict", "properties": {"n": {"type": ["int", "null"]}, "x": {"type": ["any", "str"]}}}
    entry = openai_tools.tool_entry({"name": "a", "parameters": schema}, 0, [])
    assert [p["type"] for p in entry["parameters"]] == ["integer", None]  # was "int": no number to inference
    assert entry["input_schema"]["properties"] == {"n": {"type": ["integer", "null"]}, "x": {}}


def test_json_lines_of_json_rpc_messages_say_so_and_one_answer_line_is_read(tmp_path):
    """Twenty-sixth session (review): JSON lines of JSON-RPC messages were read as tools without names ("tool #0:
    name: Field required"); a log of several says what it is, one tools/list answer on one line is read as it."""
    answer = {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_box", "inputSchema": {"type": "object"}}]}}
    log = tmp_path / "session.jsonl"
    log.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": {}}) + "\n" + json.dumps(answer) + "\n")
    with pytest.raises(CatalogError, match=r"\(2 JSON-RPC messages: save the tools/list answer alone"):
        json_catalog.load(log)
    with pytest.raises(CatalogError, match=r"\(2 JSON-RPC messages"):
        load_document(log.read_text(), "log")
    one = tmp_path / "answer.jsonl"
    one.write_text(json.dumps(answer) + "\n")
    (dump := tmp_path / "answer.json").write_text(json.dumps(answer))
    assert [t["name"] for t in json_catalog.load(one).tools] == ["get_box"]
    assert json_catalog.load(one).tools == json_catalog.load(dump).tools


def test_one_json_rpc_message_in_brackets_reads_alike_through_the_cli_and_the_rest_import(tmp_path):
    """Twenty-seventh session (review): `[{tools/list answer}]` loaded through `load json` but the REST import
    refused it as "1 JSON-RPC messages, one a line"; an error answer in brackets named the messages, not the error.
    Both unwrap one message first (loaders/common.py `one_message`)."""
    answer = {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_box", "inputSchema": {"type": "object"}}]}}
    (path := tmp_path / "answer.json").write_text(json.dumps([answer]))
    assert [t["name"] for t in json_catalog.load(path).tools] == ["get_box"]
    assert [t["name"] for t in load_document(path.read_text(), "c").tools] == ["get_box"]
    error = {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "Method not found"}}
    path.write_text(json.dumps([error]))
    for load in (lambda: json_catalog.load(path), lambda: load_document(path.read_text(), "c")):
        with pytest.raises(CatalogError, match=r"a JSON-RPC error answer: -32601 Method not found"):
            load()
