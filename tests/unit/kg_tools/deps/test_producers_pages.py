"""A page of a listing (kg_tools/deps/producers.py, eleventh session): `get_shelf_items_page` lists items and its
optional `itemIds` filters them. (The SQL rule first tested here was dropped: it lowered two retrieval rows.)
Made-up tool lists, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.resources import name_verb_and_object
from tests.support.made_up_ops import wanted


def _tool(name: str, description: str, props: dict[str, dict], optional: tuple[str, ...] = ()) -> ToolInfo:
    params = [{"name": n, "required": n not in optional, **p} for n, p in props.items()]
    schema = {"type": "object", "properties": props}
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params, "input_schema": schema})


def _s(description: str = "") -> dict:
    return {"type": "string", "description": description}


def test_a_pagination_word_after_a_plural_ends_no_name_of_a_thing():
    assert name_verb_and_object("get_shelf_items_page") == ("get", ["shelf", "items"])
    assert name_verb_and_object("getShelfVersionsPaginated") == ("get", ["shelf", "versions"])
    assert name_verb_and_object("get_status_page") == ("get", ["status", "page"])  # no plural before it


def test_a_listing_filtered_by_an_optional_list_of_ids_provides_them():
    ids = {"type": "array", "items": {"type": "string"}, "description": "The ids of the items to get"}
    props = {"shelfId": _s("The id of the shelf"), "itemIds": ids}
    tools = [
        _tool("list_shelves", "List shelves", {}),
        _tool("get_shelf_items_page", "Get all items from a shelf with pagination", props, optional=("itemIds",)),
        _tool("move_item", "Move an item to another shelf", {"itemId": _s("The id of the item")}),
    ]
    assert "get_shelf_items_page" in wanted(tools)[("move_item", "itemId")][2]
