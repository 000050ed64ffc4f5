"""OpenAPI import: a response that streams JSON texts (`application/x-ndjson`, JSON Lines, RFC 7464 sequences) declares
the schema of one text, so its output schema is an array of it (Lichess's game exports and event streams); JSON is
still preferred when both are offered, and such a response is not counted as unread. Made-up specs, no database."""

from __future__ import annotations

import pytest

from kg_tools.loaders import openapi

GAME = {"type": "object", "properties": {"id": {"type": "string"}, "rated": {"type": "boolean"}}}


def _spec(content: dict) -> dict:
    op = {"operationId": "exportGames", "responses": {"200": {"description": "x", "content": content}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/games/user/{username}": {"get": op}},
    }


@pytest.mark.parametrize(
    "media",
    ["application/x-ndjson", "application/x-ndjson; charset=utf-8", "application/jsonl", "application/json-seq"],
)
def test_a_stream_of_json_texts_is_read_as_an_array_of_its_schema(media: str):
    warnings: list[str] = []
    (tool,) = openapi.entries(_spec({media: {"schema": GAME}}), "spec.json", warnings)
    assert tool["output_schema"]["type"] == "array"
    assert tool["output_schema"]["items"]["properties"] == GAME["properties"]
    assert warnings == []


def test_json_is_preferred_to_a_stream_of_it():
    listing = {"type": "object", "properties": {"games": {"type": "array", "items": GAME}}}
    content = {"application/x-ndjson": {"schema": GAME}, "application/json": {"schema": listing}}
    (tool,) = openapi.entries(_spec(content), "spec.json")
    assert tool["output_schema"]["properties"]["games"]["items"]["properties"] == GAME["properties"]


def test_a_stream_without_a_schema_gives_no_output_schema():
    (tool,) = openapi.entries(_spec({"application/x-ndjson": {}}), "spec.json")
    assert "output_schema" not in tool


def test_openapi_3_2_item_schema_is_one_text_and_an_array_schema_the_whole_stream():
    """OpenAPI 3.2 writes one text's schema as `itemSchema` and the whole stream's as `schema` (an array): neither is
    wrapped twice (review of the twenty-first session)."""
    for entry in ({"itemSchema": GAME}, {"schema": {"type": "array", "items": GAME}}):
        (tool,) = openapi.entries(_spec({"application/jsonl": entry}), "spec.json")
        assert tool["output_schema"]["type"] == "array"
        assert tool["output_schema"]["items"]["properties"] == GAME["properties"]


@pytest.mark.parametrize("schema", [{"type": 5}, {"type": "object", "properties": []}, "x"])
def test_an_unsound_stream_schema_is_dropped_with_a_warning_not_the_document(schema):
    """A stream of JSON texts is read as `*/*` is, at best effort: a document that offers no JSON response is not
    refused for it (review of the twenty-first session: such a document was refused, its message naming an `items`
    the spec does not have)."""
    warnings: list[str] = []
    (tool,) = openapi.entries(_spec({"application/x-ndjson": {"schema": schema}}), "spec.json", warnings)
    assert "output_schema" not in tool
    assert len(warnings) == 1 and "response schema not kept" in warnings[0]


def test_a_stream_of_a_schema_the_document_does_not_hold_is_an_array_of_untyped_values():
    warnings: list[str] = []
    (tool,) = openapi.entries(_spec({"application/x-ndjson": {"schema": {"$ref": "#/c/Nope"}}}), "spec.json", warnings)
    assert tool["output_schema"] == {"type": "array", "items": {}}
    assert len(warnings) == 1 and "$ref '#/c/Nope' does not resolve" in warnings[0]
