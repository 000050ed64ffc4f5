"""A resource whose word is noise in schema titles (`collection`): a REST path that names it (`GET /collections`)
names the tool's resource, and a title that is that word plus format words (`CollectionDto`, `CollectionResponse`)
names it too (kg_tools/deps/producers.py `_root_resource`, resources.py `schema_offers`; docs/dependencies.md,
twenty-second session: a first contact with unseen specs). Small made-up specs, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.producers import prepare, tool_kind, tool_offers
from kg_tools.deps.resources import schema_offers
from tests.support.made_up_ops import op, query_integer, wanted


def _shelf(title: str) -> dict:
    return {"title": title, "type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}


def _page(title: str) -> dict:
    items = {"type": "array", "items": _shelf(title)}
    return {"title": "PageCollectionDto", "type": "object", "properties": {"content": items}}


def test_a_noise_title_plus_format_words_names_the_root():
    """In a page of them, `CollectionDto` and `CollectionResponse` name a collection where the tool is about
    collections (as `Collection` did); with no root they name nothing, and the page's key does."""
    for title in ("CollectionDto", "CollectionResponse", "Collection"):
        offers = schema_offers("listShelves", _page(title), root="collection")
        assert ("collection", "id", "content[].id") in {(o.resource, o.field, o.path) for o in offers}, title
    assert {o.resource for o in schema_offers("listShelves", _page("CollectionDto"))} == {"content"}


def test_a_rest_path_of_collections_offers_their_ids():
    """`GET /collections` listing `CollectionDto`s offers collection ids, so a filter `collection_id` finds it."""
    tools = [
        op("getAll", "GET", "/api/collections", [], output_schema=_page("CollectionDto")),
        op("getBooks", "GET", "/api/books", [query_integer("collection_id")]),
    ]
    listing = prepare(tools)["getAll"]
    listing.kind = tool_kind(listing)
    assert ("collection", "id", "content[].id") in {(o.resource, o.field, o.path) for o in tool_offers(listing)}
    resources, field, producers = wanted(tools)[("getBooks", "collection_id")]
    assert (resources, field) == (["collection"], "id") and "getAll" in producers
