"""OpenAPI import: a response whose `content` map or media type entry is a `$ref` (Lob's `content: {$ref:
'#/components/mediaTypes/…'}`, OpenAPI 3.2's media type references) is read like one written out; a document whose
operations answer only in another format than JSON, or only under `default`, says how many in one warning (their
outputs provide nothing to inference). Made-up specs, no database."""

from __future__ import annotations

from kg_tools.loaders import openapi

BOOK = {"type": "object", "properties": {"book_id": {"type": "string"}}}


def _spec(paths: dict, components: dict | None = None) -> dict:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths, "components": components or {}}


def _get(responses: dict, op_id: str = "getBook") -> dict:
    return {"get": {"operationId": op_id, "responses": responses}}


def _answer(media: str, schema: dict | None = None) -> dict:
    return {"description": "x", "content": {media: {"schema": schema or BOOK}}}


def test_a_content_map_given_by_ref_is_read():
    components = {
        "mediaTypes": {"book": {"application/json": {"schema": BOOK}}},
        "responses": {"one_book": {"description": "A book", "content": {"$ref": "#/components/mediaTypes/book"}}},
    }
    spec = _spec({"/books/{id}": _get({"200": {"$ref": "#/components/responses/one_book"}})}, components)
    warnings: list[str] = []
    (tool,) = openapi.entries(spec, "spec.json", warnings)
    assert tool["output_schema"]["properties"] == BOOK["properties"]
    assert warnings == []


def test_a_media_type_entry_given_by_ref_is_read():
    components = {"mediaTypes": {"book": {"schema": BOOK}}}
    response = {"description": "x", "content": {"application/json": {"$ref": "#/components/mediaTypes/book"}}}
    (tool,) = openapi.entries(_spec({"/books/{id}": _get({"200": response})}, components), "spec.json")
    assert tool["output_schema"]["properties"] == BOOK["properties"]


def test_operations_answering_only_in_another_format_or_under_default_are_counted_in_one_warning():
    paths = {
        "/report": _get({"200": _answer("application/pdf", {"type": "string", "format": "binary"})}, "getReport"),
        "/status": _get({"default": _answer("application/json")}, "getStatus"),
        "/books/{id}": _get({"200": _answer("application/json")}),
        "/old/{id}": {"delete": {"operationId": "deleteOld", "responses": {"204": {"description": "gone"}}}},
        "/any": _get({"200": _answer("*/*")}, "getAny"),
    }
    warnings: list[str] = []
    openapi.entries(_spec(paths), "spec.json", warnings)
    assert warnings == [
        "spec.json: 2 of 5 operations answer only in a format other than JSON or only under `default` (e.g. GET "
        "/report): no output schema is kept for them, so inference cannot read what they return"
    ]


def test_operations_answering_in_json_with_no_schema_are_counted_in_one_warning():
    example = {"@graph": [{"@id": "http://x/api/enterprises/1", "name": "Fred's Farm"}]}
    paths = {
        "/enterprises": _get(
            {
                "200": {
                    "description": "x",
                    "content": {"application/json; charset=utf-8": {"examples": {"one": {"value": example}}}},
                }
            },
            "listEnterprises",
        ),
        "/offers/{id}": _get(
            {"200": {"description": "x", "content": {'application/ld+json; profile="v2"': {}}}}, "getOffer"
        ),
        "/books/{id}": _get({"200": _answer("application/json")}),
        "/report": _get({"200": {"description": "x", "content": {"application/pdf": {}}}}, "getReport"),
    }
    warnings: list[str] = []
    tools = openapi.entries(_spec(paths), "spec.json", warnings)
    assert [t["name"] for t in tools if t.get("output_schema")] == ["getBook"]
    assert warnings[-1] == (
        "spec.json: 2 of 4 operations answer in JSON with no schema (e.g. GET /enterprises; 1 of them give examples, "
        "not read as a schema): no output schema is kept for them, so inference cannot read what they return"
    )
