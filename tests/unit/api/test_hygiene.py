"""The smaller findings of issue 23 (item 13): a keyless schema states no auth, an unknown Browser guide
file is a JSON Error 404, `load json DIR` is a usage error, `--replace` does not re-embed unchanged
tools, inference runs whose edges went with their tools are reported stale, and one POST /v1/deps/infer
works through a bounded number of tools."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from kg_tools.errors import CatalogError
from kg_tools.loaders import json_catalog, openapi
from kg_tools.settings import Settings
from tests.support.cli_process import kg_tools_process


def schema(**settings) -> dict:
    app = create_app(Settings(api_allowed_hosts=["testserver"], **settings))
    return TestClient(app).get("/openapi.json").json()  # no lifespan: no graph needed


def test_a_keyless_schema_states_no_auth():
    keyless = schema(api_key=None)
    assert "securitySchemes" not in keyless.get("components", {})
    for path, operations in keyless["paths"].items():
        for method, operation in operations.items():
            assert "security" not in operation and "401" not in operation["responses"], (method, path)
            assert "API key" not in operation["responses"].get("403", {}).get("description", ""), (method, path)
    keyed = schema(api_key="k")
    put = keyed["paths"]["/v1/tools/{name}"]["put"]
    assert put["security"] == [{"HTTPBearer": []}] and "401" in put["responses"]
    assert "HTTPBearer" in keyed["components"]["securitySchemes"]


def test_an_unknown_browser_guide_file_is_a_json_error():
    client = TestClient(create_app(Settings(api_allowed_hosts=["testserver"])))
    assert client.get("/browser-guide/kg-tools.grass").status_code == 200
    missing = client.get("/browser-guide/nope.html")
    assert missing.status_code == 404 and missing.headers["content-type"] == "application/json"
    assert missing.json() == {"error": "not_found", "detail": "Not Found"}
    # CORS for the Browser still applies to the JSON answer
    assert (
        client.get("/browser-guide/nope.html", headers={"Origin": "http://localhost:7474"}).headers[
            "access-control-allow-origin"
        ]
        == "*"
    )


@pytest.mark.parametrize("command", ["json", "openapi", "openai-tools"])
def test_loading_a_directory_is_a_usage_error_with_one_line(tmp_path, command):
    done = kg_tools_process("load", command, str(tmp_path))
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: ") and "is a directory" in last and "IsADirectoryError" not in done.stderr


@pytest.mark.parametrize("group", ["catalogs", "deps"])
def test_a_group_without_its_command_shows_help_and_one_error_line(group):
    done = kg_tools_process(group)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert "Commands:" in done.stderr and lines[-1].startswith(f"error: kg-tools {group} needs a command (one of: ")
    assert sum(line.startswith("error:") for line in lines) == 1


def test_the_loaders_refuse_a_directory_too(tmp_path):
    for loader in (json_catalog, openapi):
        with pytest.raises(CatalogError, match="is a directory"):
            loader.load(tmp_path)


# -- real Neo4j ------------------------------------------------------------------------------------
