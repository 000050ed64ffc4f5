"""OpenAPI import: an operation whose answer is a file, not a JSON value, says so in `http.response_media_type` (the
first media type offered that is not JSON): a 2xx response offering no JSON, or offering a binary string as JSON, or
with no 2xx response a `default` one so (Komga's poster images: `application/json` and `image/jpeg`, both
`format: binary`). Made-up specs, no database."""

from __future__ import annotations

from kg_tools.loaders import openapi

BINARY = {"type": "string", "format": "binary"}
BOOK = {"type": "object", "properties": {"book_id": {"type": "string"}}}


def _media(responses: dict) -> str | None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/books/{id}/x": {"get": {"operationId": "getX", "responses": responses}}},
        "components": {"schemas": {"Binary": BINARY}},
    }
    (tool,) = openapi.entries(spec, "spec.json")
    return tool["http"].get("response_media_type")


def _answer(content: dict) -> dict:
    return {"description": "x", "content": {media: {"schema": schema} for media, schema in content.items()}}


def test_an_answer_that_is_a_file_gives_its_media_type():
    assert _media({"200": _answer({"image/png; q=1": BINARY})}) == "image/png"
    assert _media({"200": _answer({"text/csv": {"type": "string"}})}) == "text/csv"
    ref = {"$ref": "#/components/schemas/Binary"}
    assert _media({"200": _answer({"application/json": ref, "image/jpeg": BINARY})}) == "image/jpeg"
    assert _media({"400": _answer({"*/*": BOOK}), "default": _answer({"application/json": BINARY})}) == (
        "application/json"
    )


def test_an_answer_in_json_or_with_no_body_gives_none():
    assert _media({"200": _answer({"application/json": BOOK, "image/png": BINARY})}) is None
    assert _media({"200": _answer({"*/*": BOOK})}) is None
    assert _media({"204": {"description": "gone"}}) is None
    assert _media({"200": _answer({"application/pdf": BINARY}), "default": _answer({"image/png": BINARY})}) == (
        "application/pdf"
    )
    assert _media({"201": {"description": "made"}, "default": _answer({"image/png": BINARY})}) is None
