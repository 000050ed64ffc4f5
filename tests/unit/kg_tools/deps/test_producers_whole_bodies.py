"""A request body the OpenAPI loader keeps as one parameter `body` (kg_tools/deps/producers.py `whole_body`,
fifteenth session): its schema is no plain object -- an `allOf` of objects, a `oneOf` of alternative requests --
so its fields are nested under `body.` although they are the request's own. They are wanted like the top-level
parameters of a flat body: undescribed, and in each alternative. Also two producers that were no candidates: a GET
named with a change verb, and a multi-word id named like its object's title. Small made-up specs, no names of
real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import nested_parameters, prepare, tool_kind
from kg_tools.deps.resources import schema_offers
from kg_tools.loaders import openapi
from tests.support.made_up_ops import op, wanted

SHELVES = op(
    "listShelves",
    "GET",
    "/shelves",
    [],
    output_schema={"type": "object", "properties": {"data": {"type": "array", "items": {"properties": {"id": {}}}}}},
)
ROOMS = op(
    "listRooms",
    "GET",
    "/rooms",
    [],
    output_schema={"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}},
)


def _body_tool(body: dict, name: str = "createBook", method: str = "POST", path: str = "/books"):
    return op(
        name,
        method,
        path,
        [{"name": "body", "type": "object", "required": True, "in": "body"}],
        input_schema={"type": "object", "properties": {"body": body}},
    )


def test_an_undescribed_field_of_a_whole_body_is_wanted():
    """`allOf` members folded into one object by the loader: `body.shelf_id` has no description (a capped input
    schema drops them) and is wanted as a top-level `shelf_id` would be."""
    body = {"type": "object", "properties": {"title": {"type": "string"}, "shelf_id": {"type": "string"}}}
    wants = wanted([SHELVES, _body_tool(body)])
    assert wants[("createBook", "body.shelf_id")][:2] == (["shelf"], "id")
    assert "listShelves" in wants[("createBook", "body.shelf_id")][2]


def test_each_alternative_of_a_whole_body_is_read():
    """A `oneOf` body (place by shelf, or by room): each alternative's identifier is wanted."""
    body = {
        "oneOf": [
            {"type": "object", "properties": {"shelf_id": {"type": "string"}}},
            {"type": "object", "properties": {"room_id": {"type": "string"}, "label": {"type": "string"}}},
        ]
    }
    wants = wanted([SHELVES, ROOMS, _body_tool(body, "placeBook", "POST", "/books/{book_id}/actions")])
    assert wants[("placeBook", "body.shelf_id")][:2] == (["shelf"], "id")
    assert wants[("placeBook", "body.room_id")][:2] == (["room"], "id")


def test_deeper_undescribed_fields_and_named_objects_are_not_wanted():
    """Only the body's own level counts as top-level: an undescribed id two levels down (`body.meta.shelf_id`), and
    an undescribed field of an object parameter not called `body` (`options.shelf_id`), stay without a want."""
    deep = {
        "type": "object",
        "properties": {"meta": {"type": "object", "properties": {"shelf_id": {"type": "string"}}}},
    }
    named = op(
        "tagBook",
        "POST",
        "/tags",
        [{"name": "options", "type": "object", "required": True, "in": "body"}],
        input_schema={
            "type": "object",
            "properties": {"options": {"type": "object", "properties": {"shelf_id": {"type": "string"}}}},
        },
    )
    wants = wanted([SHELVES, _body_tool(deep), named])
    assert ("createBook", "body.meta.shelf_id") not in wants
    assert ("tagBook", "options.shelf_id") not in wants


def test_a_get_named_with_a_change_verb_still_reads():
    """`GET /jobs/list` named `bulkSendJobList`: the verb its name holds (`send`) does not make a GET a change; it
    lists (and offers the jobs' ids). A POST of the same name still changes."""
    jobs = {"type": "object", "properties": {"jobs": {"type": "array", "items": {"properties": {"job_id": {}}}}}}
    tools = prepare(
        [
            op("bulkSendJobList", "GET", "/bulk_job/list", [], output_schema=jobs),
            op("bulkSendJobRetry", "POST", "/bulk_job/retry", []),
        ]
    )
    assert tool_kind(tools["bulkSendJobList"]) == "list"
    assert tool_kind(tools["bulkSendJobRetry"]) == "change"


def test_a_multi_word_id_named_like_its_object_s_title_is_its_own():
    """`signature_request_id` in an object titled `SignatureRequestResponse` (whose resource, cut at `request`, is
    `signature`) is the object's own id, not a reference; a one-word prefix decides nothing new (`template_id`)."""
    item = {
        "title": "SignatureRequestResponse",
        "properties": {"signature_request_id": {"type": "string"}, "template_id": {"type": "string"}},
    }
    offers = {(o.resource, o.field): o for o in schema_offers("t", {"properties": {"signature_request": item}})}
    assert offers[("request", "id")].primary and not offers[("request", "id")].reference
    assert offers[("template", "id")].reference


def test_the_parts_of_an_all_of_body_are_no_alternatives():
    """An `allOf` body's members are parts of one request: their described fields are wanted like a flat body's
    (`shelf_slug`, not only identifiers), while a `oneOf` body's are alternatives (only identifiers wanted)."""
    parts = [
        {"type": "object", "properties": {"title": {"type": "string"}}},
        {"type": "object", "properties": {"shelf_slug": {"type": "string", "description": "The shelf's slug."}}},
    ]
    assert wanted([SHELVES, _body_tool({"allOf": parts})])[("createBook", "body.shelf_slug")][:2] == (["shelf"], "slug")
    assert ("createBook", "body.shelf_slug") not in wanted([SHELVES, _body_tool({"oneOf": parts})])


def test_an_alternative_inside_an_all_of_body_stays_one():
    """`allOf: [{title}, {oneOf: [{shelf_slug}, {room_slug}]}]`: only the `oneOf`'s fields are alternatives."""
    body = {
        "allOf": [
            {"type": "object", "properties": {"title": {"type": "string"}}},
            {"oneOf": [{"type": "object", "properties": {"shelf_slug": {}}}, {"properties": {"room_slug": {}}}]},
        ]
    }
    leaves = {q["path"]: q.get("alternative") for q in nested_parameters(prepare([_body_tool(body)])["createBook"])}
    assert leaves == {"body.title": None, "body.shelf_slug": True, "body.room_slug": True}


def test_a_whole_body_renamed_past_a_query_parameter_body_is_still_whole():
    """Twenty-seventh session (review): the OpenAPI loader names an `allOf` body `body_2` when a query parameter is
    named `body` (loaders/openapi.py `_body_name`); its undescribed `shelf_id` is the request's own field, wanted as
    `body.shelf_id` is. A flat body's object property named `body_2` (no query `body` beside it) is no whole body."""
    all_of = {"allOf": [{"type": "object", "properties": {"shelf_id": {"type": "string"}}}]}
    query = {"name": "body", "in": "query", "schema": {"type": "string"}}
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/books": {
                "post": {
                    "operationId": "createBook",
                    "parameters": [query],
                    "requestBody": {"content": {"application/json": {"schema": all_of}}},
                    "responses": {"200": {"description": "ok"}},
                }
            },
            "/notes": {
                "post": {
                    "operationId": "createNote",
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {"type": "object", "properties": {"body_2": all_of["allOf"][0]}}
                            }
                        }
                    },
                    "responses": {"200": {"description": "ok"}},
                }
            },
        },
    }
    tools = [ToolInfo.from_raw(e) for e in openapi.entries(spec, "spec.json")]
    assert [p["name"] for p in tools[0].parameters] == ["body", "body_2"]
    wants = wanted([SHELVES, *tools])
    assert wants[("createBook", "body_2.shelf_id")][:2] == (["shelf"], "id")
    assert "listShelves" in wants[("createBook", "body_2.shelf_id")][2]
    assert ("createNote", "body_2.shelf_id") not in wants
