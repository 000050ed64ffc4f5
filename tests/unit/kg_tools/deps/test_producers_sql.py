"""A tool that runs SQL depends on its server's tools that list or describe tables and columns
(kg_tools/deps/producers.py `sql_proposals`; eleventh session). Made-up tool lists, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from kg_tools.deps.resources import name_verb_and_object
from tests.support.made_up_ops import wanted


def _tool(name: str, description: str, props: dict[str, dict], optional: tuple[str, ...] = ()) -> ToolInfo:
    params = [{"name": n, "required": n not in optional, **p} for n, p in props.items()]
    schema = {"type": "object", "properties": props}
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params, "input_schema": schema})


def _s(description: str = "") -> dict:
    return {"type": "string", "description": description}


def _sql_edges(tools: list[ToolInfo]) -> set[tuple[str, str, str | None]]:
    fixed, _ = candidate_groups(tools)
    return {(e.source, e.target, e.parameter_name) for e in fixed if "is SQL" in e.reason}


def _store() -> list[ToolInfo]:
    return [
        _tool("fetch_rows", "Run a SELECT on the store", {"statement": _s("The SQL statement to run")}),
        _tool("run_text", "Runs SQL on the store", {"query": _s()}),  # described by its tool only
        _tool("make_table", "Make a new table", {"query": _s("CREATE TABLE SQL statement")}),
        _tool("show_tables", "Show the tables of the store", {}),
        _tool("show_columns", "Show the columns of a table", {"table": _s("Table name")}),
        _tool("show_stores", "Show the stores", {}),
        _tool("search_notes", "Search notes", {"query": _s("Words to look for")}),
    ]


def test_a_tool_running_sql_depends_on_the_table_and_column_readers():
    edges = _sql_edges(_store())
    for consumer, parameter in (("fetch_rows", "statement"), ("run_text", "query")):
        assert (consumer, "show_tables", parameter) in edges
        assert (consumer, "show_columns", parameter) in edges
    assert not {e for e in edges if e[1] == "show_stores"}  # not a table or column reader


def test_no_sql_edge_for_a_table_maker_nor_for_plain_search_text():
    consumers = {e[0] for e in _sql_edges(_store())}
    assert "make_table" not in consumers  # its SQL names a new table
    assert "search_notes" not in consumers  # a query of words, not SQL


# A page of a listing (same session): `get_shelf_items_page` lists items; its optional `itemIds` filters them.


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
