"""A catalog whose JSON Schemas are malformed (`anyOf: 5`, `properties: ["id"]`) ends `kg-tools load` with ONE
`error:` line naming the tool and the JSON pointer of the bad keyword, exit code 2 (an invalid catalog), and
nothing written: it ended with `error: unexpected TypeError: 'int' object is not iterable`."""

from __future__ import annotations

import json

import pytest

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
    assert empty_graph.read("MATCH (t:Tool) RETURN count(t) AS n")[0]["n"] == 0
