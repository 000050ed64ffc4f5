"""Searches and listings across several types of thing (kg_tools/deps/producers.py typed_search_offers, seventeenth
session): `item_search(item_types)`, `search_content(models)` return each type their type filter enumerates, and go
after a tool named after the wanted resource (scoring.ranked). Made-up tools only."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from kg_tools.deps.resources import ACROSS_TYPES
from kg_tools.deps.scoring import default_scorer, ranked, select, set_probabilities
from tests.support.made_up_ops import wanted


def _tool(name: str, description: str, params: list[dict]) -> ToolInfo:
    schema = {"type": "object", "properties": {p["name"]: {k: v for k, v in p.items() if k != "name"} for p in params}}
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params, "input_schema": schema})


def _p(name: str, description: str = "", kind: str = "string", **extra) -> dict:
    return {"name": name, "type": kind, "description": description, "required": True} | extra


def _consumers() -> list[ToolInfo]:
    return [
        _tool("open_crate", "Open a crate.", [_p("crate_id", "The crate's ID")]),
        _tool("dock_vessel", "Dock a vessel.", [_p("vessel_id", "The vessel's ID")]),
        _tool("visit_port", "Visit a port.", [_p("port_id", "The port's ID")]),
    ]


def test_a_search_whose_described_type_filter_lists_several_resources_offers_each():
    """`item_types` "Comma-separated types to search: crate,vessel,port": a source of each one's id."""
    search = _tool(
        "item_search",
        "Universal search across all entities.",
        [_p("term", "Search term"), _p("item_types", "Comma-separated types to search: crate,vessel,port")],
    )
    found = wanted([search, *_consumers()])
    for consumer, parameter in (("open_crate", "crate_id"), ("dock_vessel", "vessel_id"), ("visit_port", "port_id")):
        assert "item_search" in found[(consumer, parameter)][2]


def test_an_enum_of_an_array_filter_counts_and_a_listing_of_generic_items_too():
    """`models: [crate, vessel, port]` (the enum on the array's items) of a content search and of a listing of a
    crate's items (its own word generic)."""
    models = {"type": "array", "description": "Filter by content types", "items": {"enum": ["crate", "vessel", "port"]}}
    search = _tool("search_content", "Search across all content.", [_p("query"), {"name": "models", **models}])
    items = _tool("get_crate_items", "List items inside a crate.", [{"name": "models", **models}])
    found = wanted([search, items, *_consumers()])
    assert {"search_content", "get_crate_items"} <= found[("dock_vessel", "vessel_id")][2]
    assert "search_content" in found[("visit_port", "port_id")][2]


def test_a_type_filter_of_a_search_or_listing_about_one_resource_offers_nothing_more():
    """`list_events(target_type)` lists events about crates or vessels; `search_invoices(invoice_type)` finds invoices
    of some kinds; a filter naming one resource of the catalog offers nothing across types either."""
    target = _p("target_type", "Filter by target", enum=["crate", "vessel", "port"])
    tools = [
        _tool("list_events", "List events.", [target]),
        _tool("search_invoices", "Search invoices.", [_p("invoice_type", "", enum=["crate", "vessel"])]),
        _tool("item_search", "Search everything.", [_p("types", "Types to search: crate,batch")]),
        _tool("void_invoice", "Void an invoice.", [_p("invoice_id", "The invoice's ID")]),
        *_consumers(),
    ]
    _, groups = candidate_groups(tools)
    across = {c.producer.name for g in groups for c in g if c.offer and c.offer.path == ACROSS_TYPES}
    assert not across  # (`search_invoices` may still be a candidate as a search returning the type it is asked for)


def test_the_search_across_types_goes_after_a_tool_named_after_the_resource():
    """With `list_crates` and `search_crates` above the threshold the search across types comes third, kept beyond
    the cap of two (each parameter keeps its own providers); with no such tool for vessels it keeps its place."""
    search = _tool(
        "item_search", "Search across all entities.", [_p("term"), _p("item_types", "Types to search: crate,vessel")]
    )
    tools = [
        search,
        _tool("list_crates", "List all crates.", []),
        _tool("search_crates", "Search crates by name.", [_p("term")]),
        *_consumers(),
    ]
    scorer = default_scorer()
    _, groups = candidate_groups(tools)
    set_probabilities(groups, scorer)
    order = {g[0].want.parameter: [c.producer.name for c in ranked(g, scorer)] for g in groups if g}
    assert order["crate_id"].index("item_search") >= 2
    assert order["vessel_id"][0] == "item_search"
    kept = {(c.want.parameter, c.producer.name) for c in select(groups, scorer)[0]}
    assert {("crate_id", "list_crates"), ("crate_id", "search_crates"), ("crate_id", "item_search")} <= kept
