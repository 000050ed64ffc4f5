"""A path parameter named by a generic word (`/api/widgets/{item_id}` of a generic CRUD router) names the resource of
the path segment before it, when the catalog offers that resource (kg_tools/deps/producers.py `_path_named`;
docs/dependencies.md, twenty-third session: a first contact with unseen specs). Small made-up specs."""

from __future__ import annotations

from tests.support.made_up_ops import PAGE_OF_IDS, path_op, path_tools, wanted


def test_an_item_id_under_another_collection_wants_that_collection():
    tools = path_tools(
        path_op("get_all_widgets", "GET", "/api/widgets", output=PAGE_OF_IDS),
        path_op("update_one_widget", "PUT", "/api/widgets/{item_id}", ["item_id"]),
        path_op("delete_one_widget", "DELETE", "/api/widgets/{item_id}", ["item_id"]),
    )
    got = wanted(tools)
    for consumer in ("update_one_widget", "delete_one_widget"):
        resources, field, producers = got[(consumer, "item_id")]
        assert (resources, field) == (["widget"], "id") and "get_all_widgets" in producers


def test_an_item_id_under_items_or_an_unknown_segment_stays_an_item():
    """`/carts/{cart_id}/items/{item_id}`: the items are the resource; `/widgets/view/{object_id}`: `view` is no
    resource the catalog offers, so the generic word stays."""
    tools = path_tools(
        path_op("list_items", "GET", "/carts/{cart_id}/items", ["cart_id"], output=PAGE_OF_IDS),
        path_op("get_item", "GET", "/carts/{cart_id}/items/{item_id}", ["cart_id", "item_id"]),
        path_op("view_object", "GET", "/widgets/view/{object_id}", ["object_id"]),
    )
    got = wanted(tools)
    assert got[("get_item", "item_id")][0] == ["item"]
    assert got.get(("view_object", "object_id"), (["object"],))[0] == ["object"]
