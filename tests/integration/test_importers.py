"""Importers loading through `kg-tools load` against the real Neo4j: OpenAI tool lists, OpenAPI, MCP servers over streamable HTTP; a rerun changes nothing, a bad spec writes nothing, a reload keeps inferred edges."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from kg_tools.cli import cli
from kg_tools.processes import free_port
from tests.conftest import graph_snapshot
from tests.support.cli_process import neo4j_env, wait_for_port
from tests.unit.loaders.test_importers import OPENAI, SHOP, TINY_MCP


@pytest.fixture
def cli_env(settings, empty_graph):
    return neo4j_env(settings)


def run_cli(env, *args):
    result = CliRunner().invoke(cli, list(args), env=env)
    assert result.exit_code == 0, result.output
    return result.output


def catalog_rows(graph, catalog):
    return graph.read(
        "MATCH (t:Tool {catalog: $c}) RETURN t.name AS name, t.embedding IS NOT NULL AS embedded ORDER BY name",
        c=catalog,
    )


@pytest.mark.integration
@pytest.mark.parametrize(
    "args, catalog, count",
    [
        (["openapi", str(SHOP)], "shop_openapi", 4),
        (["openai-tools", str(OPENAI), "--catalog", "assistant"], "assistant", 3),
        (["mcp", "--", sys.executable, str(TINY_MCP)], "tiny-notes", 3),
    ],
)
def test_importers_load_and_a_rerun_changes_nothing(graph, cli_env, args, catalog, count):
    first = run_cli(cli_env, "load", *args)
    assert f"wrote {count} tools" in first
    rows = catalog_rows(graph, catalog)
    assert len(rows) == count and all(r["embedded"] for r in rows)
    before = graph_snapshot(graph)
    second = run_cli(cli_env, "load", *args)
    assert f"{count} tools and" in second and "unchanged: nothing written" in second  # specs unchanged
    assert graph_snapshot(graph) == before


def element_ids(graph) -> dict:
    """Node and relationship element ids: a reload that deletes and recreates an edge changes them."""
    return {
        "nodes": sorted(r["id"] for r in graph.read("MATCH (n) RETURN elementId(n) AS id")),
        "relationships": sorted(r["id"] for r in graph.read("MATCH ()-[r]->() RETURN elementId(r) AS id")),
    }


@pytest.mark.integration
@pytest.mark.parametrize(
    "args, catalog, inferred",
    [
        (["openapi", str(SHOP)], "shop_openapi", 2),  # the session token, the product id of a path (cart: < 0.2)
        (["openai-tools", str(OPENAI), "--catalog", "assistant"], "assistant", 0),
        (["mcp", "--", sys.executable, str(TINY_MCP)], "tiny-notes", 1),  # delete_note needs a note id
    ],
)
def test_a_reload_keeps_inferred_edges_in_place(graph, cli_env, args, catalog, inferred):
    """Import -> deps infer --apply -> the same import again: nothing changes, not even an edge's id
    (the precomputed closure refers to them); the inferred edges stay until their run is undone."""
    run_cli(cli_env, "load", *args)
    applied = run_cli(cli_env | {"OPENAI_BASE_URL": ""}, "deps", "infer", "--catalog", catalog, "--apply")
    edges = graph.read("MATCH (:Tool {catalog: $c})-[r {inferred: true}]->(:Tool) RETURN count(r) AS n", c=catalog)[0][
        "n"
    ]
    assert edges == inferred and (f"{inferred} inferred dependency edges" in applied or not inferred)
    before, ids = graph_snapshot(graph), element_ids(graph)
    run_cli(cli_env, "load", *args)
    assert graph_snapshot(graph) == before
    assert element_ids(graph) == ids


@pytest.mark.integration
def test_load_mcp_over_streamable_http(graph, cli_env):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(TINY_MCP), "http", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_for_port(port, proc, "the tiny MCP server", timeout=30)
        url = f"http://127.0.0.1:{port}/mcp"
        run_cli(cli_env, "load", "mcp", "--url", url)
        before = graph_snapshot(graph)
        assert [r["name"] for r in catalog_rows(graph, "tiny-notes")] == ["create_note", "delete_note", "search_notes"]
        run_cli(cli_env, "load", "mcp", "--url", url)
        assert graph_snapshot(graph) == before
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.integration
def test_a_bad_spec_writes_nothing(graph, cli_env, tmp_path):
    bad = tmp_path / "bad.json"  # a parameter without a name
    bad.write_text(
        json.dumps(
            {"openapi": "3.0.0", "paths": {"/a": {"get": {"operationId": "a", "parameters": [{"in": "query"}]}}}}
        )
    )
    result = CliRunner().invoke(cli, ["load", "openapi", str(bad)], env=cli_env)
    assert result.exit_code != 0 and "a parameter needs a name and 'in'" in str(result.exception or result.output)
    assert graph.read("MATCH (t:Tool) RETURN count(t) AS n")[0]["n"] == 0


@pytest.mark.integration
def test_operations_whose_names_collide_load_under_distinct_names(graph, cli_env, tmp_path):
    """Two operations that sanitise to one name (and two long operationIds that share their first 64 characters)
    were refused as duplicates: each now loads under a name of its own; a second run changes nothing."""
    long = "listAccountUserProductPermissionProfiles" * 2
    spec = tmp_path / "dup.json"
    spec.write_text(
        json.dumps(
            {
                "openapi": "3.0.0",
                "paths": {
                    "/a": {"get": {"operationId": "get item"}},
                    "/b": {"get": {"operationId": "get_item"}},
                    "/c": {"get": {"operationId": long}},
                    "/d": {"get": {"operationId": long + "ByEmail"}},
                },
            }
        )
    )
    run_cli(cli_env, "load", "openapi", str(spec))
    names = [r["name"] for r in catalog_rows(graph, "dup")]
    assert len(names) == 4 and "get_item" in names and all(len(n) <= 64 for n in names)
    before = graph_snapshot(graph)
    run_cli(cli_env, "load", "openapi", str(spec))
    assert graph_snapshot(graph) == before


@pytest.mark.integration
def test_a_swagger_2_spec_loads_converted_with_http_and_output_schemas(graph, cli_env, tmp_path):
    """A Swagger 2.0 document is converted in-process: its body and form parameters, its response `schema` under
    `produces` and its `$ref`s reach Neo4j as those of the equivalent OpenAPI 3.0 document would."""
    pet = {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "tag": {"type": "string"}}}
    spec = tmp_path / "pets2.json"
    spec.write_text(
        json.dumps(
            {
                "swagger": "2.0",
                "info": {"title": "Pets", "version": "1"},
                "host": "api.example.com",
                "basePath": "/v1",
                "definitions": {"Pet": pet, "Pets": {"type": "array", "items": {"$ref": "#/definitions/Pet"}}},
                "paths": {
                    "/pets": {
                        "get": {
                            "operationId": "listPets",
                            "responses": {"200": {"description": "ok", "schema": {"$ref": "#/definitions/Pets"}}},
                        },
                        "post": {
                            "operationId": "createPet",
                            "parameters": [{"name": "pet", "in": "body", "schema": {"$ref": "#/definitions/Pet"}}],
                            "responses": {"201": {"description": "made", "schema": {"$ref": "#/definitions/Pet"}}},
                        },
                    },
                    "/pets/{pet_id}/photo": {
                        "put": {
                            "operationId": "putPhoto",
                            "consumes": ["multipart/form-data"],
                            "parameters": [
                                {"name": "pet_id", "in": "path", "required": True, "type": "string"},
                                {"name": "file", "in": "formData", "required": True, "type": "file"},
                            ],
                            "responses": {"default": {"description": "error"}},
                        }
                    },
                },
            }
        )
    )
    said = run_cli(cli_env, "load", "openapi", str(spec))
    assert "converted from Swagger 2.0 to OpenAPI 3.0" in said and "wrote 3 tools" in said
    rows = graph.read("MATCH (t:Tool {catalog: 'pets2'}) RETURN t.name AS name, t.spec AS spec ORDER BY name")
    tools = {r["name"]: json.loads(r["spec"]) for r in rows}
    titled = {"title": "Pet", **pet}
    assert tools["listPets"]["http"] == {
        "method": "GET",
        "path": "/pets",
        "operation_id": "listPets",
        "response_status": "200",
    }
    assert tools["listPets"]["output_schema"] == {"title": "Pets", "type": "array", "items": titled}
    assert tools["createPet"]["http"]["request_media_type"] == "application/json"
    assert tools["createPet"]["output_schema"] == titled
    assert [p["name"] for p in tools["createPet"]["parameters"]] == ["id", "tag"]
    assert tools["putPhoto"]["http"] == {
        "method": "PUT",
        "path": "/pets/{pet_id}/photo",
        "operation_id": "putPhoto",
        "request_media_type": "multipart/form-data",
    }
    assert "output_schema" not in tools["putPhoto"]
    assert tools["putPhoto"]["input_schema"]["properties"]["file"] == {"type": "string", "format": "binary"}
