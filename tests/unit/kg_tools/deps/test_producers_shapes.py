"""Bodies in the shapes real APIs use (kg_tools/deps/resources.py, producers.py, eleventh session): HAL's
`_embedded.elements[]` and `_links.<rel>.href`, JSON:API's `type` discriminator, `attributes` and
`relationships.<rel>.data.id`. Small made-up specs, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.resources import schema_offers, schema_resource
from tests.support.made_up_ops import op, wanted

LINK = {"type": "object", "properties": {"href": {"type": "string"}, "title": {"type": "string"}}}
SHELF = {"title": "BookModel", "type": "object", "properties": {"id": {"type": "integer"}, "_links": {}}}


def _offers(schema: dict) -> dict[tuple[str, str], tuple[str, bool]]:
    return {(o.resource, o.field): (o.path, o.primary) for o in schema_offers("t", schema)}


def test_hal_embedded_elements_are_the_collection_itself():
    """`_embedded.elements[]` of a HAL collection holds its items: their `id` is what the list is about."""
    listed = {
        "title": "BooksModel",
        "type": "object",
        "properties": {
            "_type": {"type": "string", "enum": ["Collection"]},
            "_embedded": {"type": "object", "properties": {"elements": {"type": "array", "items": SHELF}}},
        },
    }
    assert _offers(listed)[("book", "id")] == ("_embedded.elements[].id", True)


def test_a_one_value_type_names_the_object():
    """JSON:API's relationship data `{id, type: "book-covers"}` is a cover's id, whatever the title above says;
    `attributes` holds the object's own fields."""
    cover = {
        "type": "object",
        "properties": {"id": {"type": "string"}, "type": {"type": "string", "enum": ["book-covers"]}},
    }
    item = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "type": {"type": "string", "enum": ["books"]},
            "attributes": {"type": "object", "properties": {"isbn": {"type": "string"}, "code": {"type": "string"}}},
            "relationships": {
                "type": "object",
                "properties": {
                    "cover": {"title": "Resource Identifier", "type": "object", "properties": {"data": cover}}
                },
            },
        },
    }
    offers = _offers({"type": "object", "properties": {"data": {"type": "array", "items": item}}})
    assert offers[("book", "id")] == ("data[].id", True)
    assert offers[("book", "code")] == ("data[].attributes.code", True)
    assert offers[("cover", "id")][0] == "data[].relationships.cover.data.id"
    assert ("identifier", "id") not in offers and ("attribute", "code") not in offers


def test_hal_links_offer_the_ids_in_their_hrefs():
    """Items without an `id` field: `_links.self.href` is their own id, `_links.customer.href` a customer's; an
    action link (`cancel`) and one plural link (`payments`, a collection's) offer nothing."""
    links = {"self": LINK, "customer": LINK, "cancel": LINK, "payments": LINK}
    order = {"type": "object", "properties": {"total": {"type": "number"}, "_links": {"properties": links}}}
    listed = {"title": "OrderList", "properties": {"_embedded": {"properties": {"orders": {"items": order}}}}}
    offers = {(o.resource, o.field): (o.path, o.primary, o.reference) for o in schema_offers("t", listed)}
    assert offers == {
        ("order", "id"): ("_embedded.orders[]._links.self.href", True, False),
        ("customer", "id"): ("_embedded.orders[]._links.customer.href", False, True),
    }


def test_a_title_names_what_comes_before_by():
    assert schema_resource("Books_by_LibraryModel") == "book"


def _hal_ops() -> list:
    shelf = {"title": "ShelfModel", "type": "object", "properties": {"id": {"type": "integer"}}}
    listed = {"type": "object", "properties": {"_embedded": {"properties": {"elements": {"items": shelf}}}}}
    links = {
        "type": "object",
        "properties": {
            "shelf": LINK,
            "tags": {"type": "array", "items": LINK},
            "comments": LINK,  # one link named in the plural: the collection's, not an instance to look up
            "update": LINK,  # an action link
        },
    }
    body = {"type": "object", "properties": {"_links": links}}
    return [
        op("list_shelves", "GET", "/shelves", [], output_schema=listed),
        op("list_tags", "GET", "/tags", [], output_schema={"type": "array", "items": {"properties": {"id": {}}}}),
        op(
            "create_book",
            "POST",
            "/books",
            [{"name": "body", "type": "object", "in": "body", "required": True}],
            input_schema={"type": "object", "properties": {"body": body}},
        ),
    ]


def test_a_hal_body_wants_what_its_links_name():
    """`_links.<rel>.href` of a request body, described or not, wants an id of <rel>; action links and a
    collection's link want nothing."""
    found = wanted(_hal_ops())
    assert found[("create_book", "body._links.shelf.href")][:2] == (["shelf"], "id")
    assert "list_shelves" in found[("create_book", "body._links.shelf.href")][2]
    assert found[("create_book", "body._links.tags[].href")][:2] == (["tag"], "id")
    assert not {p for c, p in found if c == "create_book"} & {"body._links.comments.href", "body._links.update.href"}


def test_a_json_api_body_wants_its_relationships():
    """`data.relationships.<rel>.data.id` wants a <rel> (below the nesting depth other objects get), and a body
    posted to `/…/relationships/<rel>` wants <rel> ids in `data[].id`."""
    ref = {"type": "object", "properties": {"data": {"type": "object", "properties": {"id": {}, "type": {}}}}}
    rels = {"type": "object", "properties": {"publisher": ref}}
    data = {"type": "object", "properties": {"type": {"enum": ["books"]}, "relationships": rels}}
    listed = {"type": "object", "properties": {"data": {"type": "array", "items": {"properties": {"id": {}}}}}}
    body = [{"name": "data", "type": "object", "in": "body", "required": True}]
    tools = [
        op("publishers_list", "GET", "/publishers", [], output_schema=listed),
        op("books_create", "POST", "/books", body, input_schema={"type": "object", "properties": {"data": data}}),
        op(
            "books_tags_update",
            "PATCH",
            "/books/{id}/relationships/publishers",
            [{"name": "id", "type": "string", "in": "path", "required": True}] + body,
            input_schema=listed,
        ),
    ]
    found = wanted(tools)
    assert found[("books_create", "data.relationships.publisher.data.id")][:2] == (["publisher"], "id")
    assert "publishers_list" in found[("books_create", "data.relationships.publisher.data.id")][2]
    assert found[("books_tags_update", "data[].id")][:2] == (["publisher"], "id")


def test_an_item_field_named_after_its_item_is_its_name():
    """`books[].book` (a string) is each book's own name; a top's `{"book": "..."}` is content, no name."""
    listed = {
        "type": "object",
        "properties": {
            "books": {
                "type": "array",
                "items": {"type": "object", "properties": {"book": {"type": "string"}, "size": {"type": "integer"}}},
            }
        },
    }
    assert _offers(listed)[("book", "name")] == ("books[].book", True)
    top = {"title": "Book", "type": "object", "properties": {"book": {"type": "string"}}}
    assert ("book", "name") not in _offers(top)


def test_a_models_direction_is_no_resource():
    """`BookOut`, `BookInput`: the book (a model read or written), not a resource called "out"."""
    assert schema_resource("BookOut") == "book"
    assert schema_resource("BookInput") == "book"
    assert schema_resource("Out") == "out"


def test_a_page_token_is_the_lists_own():
    """`nextPageToken`, `page_token` (undescribed) ask for the same list's next page, not another tool's token."""
    page = {"type": "object", "properties": {"nextPageToken": {"type": "string"}, "books": {"type": "array"}}}
    tools = [
        op("ListBooks", "GET", "/books", [{"name": "nextPageToken", "in": "query"}], output_schema=page),
        op("ListShelves", "GET", "/shelves", [{"name": "page_token", "in": "query"}], output_schema=page),
    ]
    assert wanted(tools) == {}
