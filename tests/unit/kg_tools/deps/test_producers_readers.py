"""Readers kept beside a collection's own list (kg_tools/deps/producers.py, twelfth session): a search of the same
things and the caller's own list of them (and, fourteenth session, a list of them inside another instance), not the
caller's single object, not for a call that removes what it names from the collection. Made-up specs only."""

from __future__ import annotations

from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import op

WIDGET = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
LISTED = {"type": "array", "items": WIDGET}


def _path(name: str) -> dict:
    return {"name": name, "type": "string", "description": "", "required": True, "in": "path"}


def _query(name: str) -> dict:
    return {"name": name, "type": "string", "description": "", "required": True, "in": "query"}


def _kept(tools, consumer: str, parameter: str) -> dict[str, bool]:
    _, groups = candidate_groups(tools)
    group = next(g for g in groups if g and g[0].consumer.name == consumer and g[0].want.parameter == parameter)
    return {c.producer.name: c.kept_by_rules for c in group}


READERS = [
    op("listWidgets", "GET", "/widgets", [], output_schema=LISTED),
    op("searchWidgets", "GET", "/search/widgets", [], output_schema={"type": "object", "properties": {"data": LISTED}}),
    op("listMyWidgets", "GET", "/user/widgets", [], output_schema=LISTED),
    op("listShelfWidgets", "GET", "/shelves/{shelf_id}/widgets", [_path("shelf_id")], output_schema=LISTED),
    op("getMe", "GET", "/user", [], output_schema={"type": "object", "properties": {"id": {"type": "string"}}}),
]


def test_a_search_and_the_callers_own_list_are_kept_beside_the_collections_list():
    """`GET /widgets/{widget_id}`: its collection's list, the search of widgets and the caller's widgets are kept
    by the rules; since the fourteenth session a shelf's widgets too (a part of the same collection inside another
    instance, `_scoped_list`), though it needs a shelf first."""
    tools = [*READERS, op("getWidget", "GET", "/widgets/{widget_id}", [_path("widget_id")])]
    kept = _kept(tools, "getWidget", "widget_id")
    assert kept["listWidgets"] and kept["searchWidgets"] and kept["listMyWidgets"]
    assert kept["listShelfWidgets"] is True


def test_a_removal_from_the_collection_keeps_its_list_alone():
    """`DELETE /widgets?ids=`: what it removes is in that collection, so only its list is kept."""
    tools = [*READERS, op("dropWidgets", "DELETE", "/widgets", [_query("widget_ids")])]
    kept = _kept(tools, "dropWidgets", "widget_ids")
    assert kept["listWidgets"] is True
    assert not kept["searchWidgets"] and not kept["listMyWidgets"]
