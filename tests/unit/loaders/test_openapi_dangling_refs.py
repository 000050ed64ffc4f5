"""A spec with a `$ref` to a definition it does not hold (Focalboard's `BoardStatistics`) loads: what the reference
stands for reads as an untyped schema, or the parameter or response it names is left out, with one warning naming
the reference and every operation it touched (also through a shared schema read once); a spec left with no
operation is still refused."""

from __future__ import annotations

import json

import pytest

from kg_tools.errors import CatalogError
from kg_tools.loaders import openapi
from kg_tools.loaders.bounded import Dangling, RefResolver
from kg_tools.loaders.document import load_document

BOARD = {"type": "object", "properties": {"id": {"type": "string"}, "stats": {"$ref": "#/components/schemas/Stats"}}}


def spec() -> dict:
    def ok(ref: str) -> dict:
        return {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": ref}}}}}

    board_id = {"name": "boardID", "in": "path", "required": True, "schema": {"type": "string"}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "boards", "version": "1"},
        "components": {"schemas": {"Board": BOARD}},
        "paths": {
            "/boards/{boardID}": {
                "get": {"operationId": "getBoard", "parameters": [board_id], "responses": ok("#/components/schemas/Board")},
                "patch": {
                    "operationId": "patchBoard",
                    "parameters": [board_id, {"$ref": "#/components/parameters/Team"}],
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Board"}}}},
                    "responses": ok("#/components/schemas/Board"),
                },
            },
            "/boards/{boardID}/statistics": {
                "get": {
                    "operationId": "getStatistics",
                    "parameters": [board_id],
                    "responses": ok("#/components/schemas/Stats"),
                }
            },
            "/teams": {"get": {"operationId": "getTeams", "responses": ok("#/components/schemas/Board")}},
        },
    }  # fmt: skip


def loaded(document: dict) -> tuple[dict[str, dict], list[str]]:
    warnings: list[str] = []
    return {t["name"]: t for t in openapi.entries(document, "boards.json", warnings)}, warnings


def test_a_dangling_schema_reads_as_untyped_and_is_warned_with_every_operation_it_touched():
    tools, warnings = loaded(spec())
    assert set(tools) == {"getBoard", "patchBoard", "getStatistics", "getTeams"}
    assert tools["getBoard"]["output_schema"]["properties"]["stats"] == {}
    assert tools["getStatistics"]["output_schema"] == {}  # untyped
    assert [p["name"] for p in tools["patchBoard"]["parameters"]] == ["boardID", "id", "stats"]
    stats = next(w for w in warnings if "Stats" in w)
    assert stats.startswith("boards.json: $ref '#/components/schemas/Stats' does not resolve")
    # Board is resolved once and kept: each later operation that reads it is named too
    assert stats.endswith("in 4 operations (GET /boards/{boardID}, PATCH /boards/{boardID}, "
                          "GET /boards/{boardID}/statistics, GET /teams)")  # fmt: skip
    team = next(w for w in warnings if "Team" in w)
    assert "'#/components/parameters/Team'" in team and team.endswith("in 1 operation (PATCH /boards/{boardID})")


def test_the_same_spec_loads_through_load_document_and_as_swagger_2():
    source = load_document(json.dumps(spec()), "boards")
    assert len(source.tools) == 4 and any("Stats" in w for w in source.warnings)
    swagger = {
        "swagger": "2.0",
        "definitions": {"Board": {"type": "object", "properties": {"s": {"$ref": "#/definitions/Stats"}}}},
        "paths": {"/b": {"get": {"responses": {"200": {"description": "ok", "schema": {"$ref": "#/definitions/Board"}}}}}},
    }  # fmt: skip
    tools, warnings = loaded(swagger)
    assert tools["get_b"]["output_schema"]["properties"]["s"] == {}
    assert "$ref '#/definitions/Stats' does not resolve" in warnings[-1] and warnings[-1].endswith("(GET /b)")


def test_many_dangling_refs_are_warned_once_each_up_to_a_cap():
    document = spec()
    document["paths"] = {
        f"/r{i}": {"get": {"responses": {"200": {"$ref": f"#/components/responses/R{i}"}}}} for i in range(30)
    }
    _, warnings = loaded(document)
    dangling = [w for w in warnings if "not resolve" in w]
    assert len(dangling) == openapi.MAX_DANGLING_WARNINGS + 1
    assert dangling[-1] == "boards.json: 10 more $refs do not resolve, read alike (e.g. '#/components/responses/R20')"


@pytest.mark.parametrize(
    "paths, message",
    [
        ({"/a": {"$ref": "#/components/pathItems/A"}}, "no operations (its $ref '#/components/pathItems/A' does not"),
        ({"/a": {"$ref": "#/x/a"}, "/b": {"$ref": "#/x/b"}}, "no operations (its $ref '#/x/a' and 1 more do not"),
        ({"/a": {"get": {"responses": {"200": {"$ref": "other.yaml#/R"}}}}}, "only local $refs"),
    ],
)
def test_a_spec_whose_paths_cannot_be_read_is_still_refused(paths, message):
    with pytest.raises(CatalogError) as exc:
        openapi.entries({"openapi": "3.1.0", "paths": paths}, "x.json", [])
    assert message in str(exc.value)


def test_the_resolver_without_a_record_still_refuses_and_with_one_reads_empty():
    document = {"a": {"b": {"$ref": "#/nope"}}}
    with pytest.raises(CatalogError, match=r"\$ref '#/nope' does not resolve"):
        RefResolver(document, "d").resolve({"$ref": "#/a"})
    dangling = Dangling()
    resolver = RefResolver(document, "d", dangling=dangling)
    for place in ("one", "two"):
        dangling.place = place
        assert resolver.resolve({"$ref": "#/a"}) == {"b": {}}
    assert dangling.places == {"#/nope": {"one": None, "two": None}}
    assert resolver.dangles({"$ref": "#/nope"}) and not resolver.dangles({"$ref": "#/a"})
    assert resolver.dangles({"$ref": "#/a/b"})  # through a `$ref` that is there


def test_a_parameter_referred_to_through_another_reference_that_dangles_is_left_out():
    document = spec()
    document["components"]["parameters"] = {"Team": {"$ref": "#/components/parameters/Gone"}}
    tools, warnings = loaded(document)
    assert [p["name"] for p in tools["patchBoard"]["parameters"]] == ["boardID", "id", "stats"]
    assert any("'#/components/parameters/Gone' does not resolve" in w for w in warnings)


def test_a_dangling_parameter_ref_with_a_sibling_description_is_left_out_too():
    """s24rev fuzzing: `{"$ref": <missing>, "description": ...}` (3.1 lets a reference carry one) read as a parameter
    with no name and refused the whole spec."""
    document = spec()
    document["paths"]["/boards/{boardID}"]["patch"]["parameters"][1]["description"] = "The team."
    tools, warnings = loaded(document)
    assert [p["name"] for p in tools["patchBoard"]["parameters"]] == ["boardID", "id", "stats"]
    assert any("'#/components/parameters/Team'" in w and w.endswith("(PATCH /boards/{boardID})") for w in warnings)
