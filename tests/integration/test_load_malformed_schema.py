"""A catalog whose JSON Schemas are malformed (`anyOf: 5`, `properties: ["id"]`) ends `kg-tools load` with ONE
`error:` line naming the tool and the JSON pointer of the bad keyword, exit code 2 (an invalid catalog), and
nothing written: it ended with `error: unexpected TypeError: 'int' object is not iterable`. `load json` (our own
format) checks each tool's input_schema and output_schema the same way."""

from __future__ import annotations

import json

import pytest

from kg_tools.loaders import openapi
from tests.integration.test_cli_load import assert_one_error_line, cli_env, run_cli

pytestmark = pytest.mark.integration
__all__ = ["cli_env"]  # the fixture, used by name


def test_a_malformed_schema_is_one_error_line_and_nothing_is_written(empty_graph, cli_env, capsys, tmp_path):
    good = {"type": "function", "function": {"name": "list_users", "parameters": {"type": "object"}}}
    bad_schema = {"type": "object", "properties": {"id": {"anyOf": 5}}}
    bad = {"type": "function", "function": {"name": "get_user", "parameters": bad_schema}}
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([good, bad]))
    code, _, err = run_cli(capsys, "load", "openai-tools", str(tools))
    assert code == 2
    assert_one_error_line(err, "tool #1 (get_user): parameters/properties/id/anyOf must be a list of schemas, not 5")
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "users", "version": "1"},
        "paths": {
            "/users": {"get": {"operationId": "list_users", "responses": {"200": {"description": "ok"}}}},
            "/users/{id}": {
                "get": {
                    "operationId": "get_user",
                    "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": {"properties": ["id"]}}},
                        }
                    },
                }
            },
        },
    }
    path = tmp_path / "users.json"
    path.write_text(json.dumps(spec))
    code, _, err = run_cli(capsys, "load", "openapi", str(path))
    assert code == 2
    assert_one_error_line(err, "GET /users/{id}: responses/200/content/schema/properties must be an object of schemas")
    catalog = tmp_path / "ours.json"  # our own JSON format: its input and output schemas get the same check
    catalog.write_text(json.dumps([{"name": "list_users"}, {"name": "get_user", "output_schema": bad_schema}]))
    code, _, err = run_cli(capsys, "load", "json", str(catalog))
    assert code == 2
    assert_one_error_line(err, "tool #1 ('get_user'): output_schema/properties/id/anyOf must be a list of schemas")
    assert empty_graph.read("MATCH (t:Tool) RETURN count(t) AS n")[0]["n"] == 0


def test_a_catalog_load_openapi_cut_to_size_loads_back_with_load_json(empty_graph, cli_env, capsys, tmp_path):
    """A response schema cut to size is a valid schema: `load json` takes what `load openapi` wrote (the cut used
    to leave the nullable `avatar` one level above it as `type: []`, which the check refuses)."""
    user = {"type": "object", "properties": {"avatar": {"type": ["string", "null"]}, "id": {"type": "string"}}}
    response = {"type": "object", "properties": {f"user_{i}": user for i in range(200)}}
    ok = {"200": {"description": "ok", "content": {"application/json": {"schema": response}}}}
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/u": {"get": {"responses": ok}}}}
    spec_path = tmp_path / "users.json"
    spec_path.write_text(json.dumps(spec))
    tools = openapi.load(spec_path).tools
    assert tools[0]["output_schema"]["properties"]["user_0"]["properties"]["avatar"] == {}  # cut, not `type: []`
    catalog = tmp_path / "written.json"
    catalog.write_text(json.dumps(tools))
    code, _, err = run_cli(capsys, "load", "json", str(catalog))
    assert code == 0, err
    assert empty_graph.read("MATCH (t:Tool) RETURN count(t) AS n")[0]["n"] == 1
