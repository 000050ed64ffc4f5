"""Candidates of MCP-style tool lists (names, descriptions, input schemas, rarely output schemas; tenth session,
"MCP servers"). Small made-up tool lists, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from kg_tools.deps.scoring import Scorer, select
from tests.support.made_up_ops import wanted


def _p(name: str, description: str = "", required: bool = True, type_: str = "string") -> dict:
    return {"name": name, "type": type_, "description": description, "required": required}


def _tool(name: str, description: str, params: list[dict]) -> ToolInfo:
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params})


def test_a_reader_that_takes_the_wanted_resource_is_scoped_by_it_not_its_source():
    """`get_basket_tags(basketId?)` "Get all tags of a specific basket" returns tags: the basket its description names is
    what it reads inside, not what it hands out (neither by its description nor by its name); `list_baskets` and
    `get_current_basket` stay candidates."""
    basket = _p("basketId", "ID of the basket", required=False)
    tools = [
        _tool("list_baskets", "List all baskets the user has access to", []),
        _tool("get_basket_tags", "Get all tags of a specific basket", [basket]),
        _tool("get_current_basket", "Get information about the current basket", []),
        _tool("add_box_to_basket", "Add a box to a basket", [_p("basketId", "ID of the basket"), _p("name")]),
    ]
    resources, field, candidates = wanted(tools)[("add_box_to_basket", "basketId")]
    assert (resources, field) == (["basket"], "id")
    assert "list_baskets" in candidates and "get_current_basket" in candidates
    assert "get_basket_tags" not in candidates


def _items(props: dict) -> dict:
    return {
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"type": "object", "properties": props}}},
    }


def test_a_tool_list_takes_a_list_of_the_resource_before_a_reference_nested_in_another():
    """`searchNotes` returns notes that each hold their basket (`items[].basket.id`); `getBaskets` returns baskets
    (`items[].id`). In a tool list the nested reference goes after the list of the resource itself, whatever the
    probabilities; an HTTP operation keeps the scorer's order."""
    ref = {"type": "object", "properties": {"id": {"type": "string"}}}
    raw = [
        {
            "name": "getBaskets",
            "description": "Get baskets",
            "parameters": [],
            "output_schema": _items({"id": {"type": "string"}, "name": {"type": "string"}}),
        },
        {
            "name": "searchNotes",
            "description": "Search notes",
            "parameters": [_p("query")],
            "output_schema": _items({"id": {"type": "string"}, "basket": ref}),
        },
        {"name": "archiveBasket", "description": "Archive a basket", "parameters": [_p("basketId", "The basket")]},
    ]
    _, groups = candidate_groups([ToolInfo.from_raw(t) for t in raw])
    [group] = [g for g in groups if g and g[0].want.parameter == "basketId"]
    p = {"searchNotes": 0.9, "getBaskets": 0.6}
    for c in group:
        c.probability = p.get(c.producer.name, 0.0)
    scorer = Scorer((), 0.0, 0.1, threshold=0.4, second=0.8, per_parameter=1, hub_share=1.0, hub_min=0)
    assert [c.producer.name for c in select([group], scorer)[0]] == ["getBaskets"]
    for c in group:
        c.consumer.http = {"method": "POST", "path": "/baskets/{basketId}/archive"}
    assert [c.producer.name for c in select([group], scorer)[0]] == ["searchNotes"]


def test_a_getter_taking_only_identifiers_of_the_resource_reads_one_it_is_given():
    """`get_basket(uid?, name?)` "Get a basket by uid or name" needs one of them: no source of a basket's uid; the
    list of baskets is."""
    ids = [_p("uid", "The uid of the basket", required=False), _p("name", "The name of the basket", required=False)]
    tools = [
        _tool("get_basket", "Get a basket by uid or name", ids),
        _tool("list_baskets", "List all baskets", []),
        _tool("empty_basket", "Empty a basket", [_p("basketUid", "The basket's uid")]),
    ]
    _, groups = candidate_groups(tools)
    offers = {c.producer.name: c.offer for g in groups for c in g if c.consumer.name == "empty_basket"}
    assert offers["list_baskets"] is not None
    assert offers.get("get_basket") is None


def test_a_name_without_a_verb_reads_as_its_description_opens():
    """`basket_items` "List all items in a basket" lists items (a source of an item id); a verbless name whose
    description opens with no reading verb stays `other`."""
    tools = [
        _tool("basket_items", "List all items in a basket", [_p("basketId", "The basket")]),
        _tool("basket_magic", "Do something with a basket", [_p("basketId", "The basket")]),
        _tool("remove_item", "Remove an item", [_p("itemId", "The item")]),
    ]
    _, groups = candidate_groups(tools)
    kinds = {c.producer.name: c.producer.kind for g in groups for c in g}
    assert kinds["basket_items"] == "list"
    assert {t.name: t.kind for t in (c.consumer for g in groups for c in g)}.get("basket_magic", "other") == "other"
    assert "basket_items" in wanted(tools)[("remove_item", "itemId")][2]


def test_a_search_that_takes_its_own_resources_id_still_searches_it():
    """`baskets-search(id?, owner?)` "Search baskets" takes a basket id as one filter among many: it still returns
    baskets; a search scoped by another thing's id (`items-search(basketId?)`) does not return baskets."""
    tools = [
        _tool("baskets-search", "Search baskets", [_p("id", "The basket id", False), _p("owner", "Owner", False)]),
        _tool("items-search", "Search items in one basket", [_p("basketId", "The basket", False)]),
        _tool("baskets-empty", "Empty a basket", [_p("basketPublicId", "The basket's public id")]),
    ]
    _, groups = candidate_groups(tools)
    offers = {c.producer.name: c.offer for g in groups for c in g if c.consumer.name == "baskets-empty"}
    assert offers.get("baskets-search") is not None
    assert offers.get("items-search") is None


def test_a_reader_named_after_two_resources_is_a_source_of_both():
    """`list_vessels_and_crews(vesselIds?, crewIds?)` fetches vessels and/or crews: it takes vessel ids as a filter, and it
    still hands out vessels (its name names them too), unlike a reader named after another resource alone."""
    tools = [
        _tool(
            "list_vessels_and_crews",
            "Fetch vessels and/or crews",
            [
                _p("vesselIds", "Vessel IDs to fetch", required=False),
                _p("crewIds", "Crew IDs to fetch", required=False),
            ],
        ),
        _tool("list_vessels", "List all vessels", []),
        _tool("dock_vessel", "Dock a vessel", [_p("vessel_id", "The vessel ID to dock"), _p("text")]),
    ]
    resources, _, candidates = wanted(tools)[("dock_vessel", "vessel_id")]
    assert resources[:1] == ["vessel"] and {"list_vessels", "list_vessels_and_crews"} <= set(candidates)


def test_a_reader_of_things_for_a_scope_is_scoped_by_it():
    """`get_tags_for_basket(basketId?)` reads tags of one basket: what its name names after a cut word (`for`) is
    the scope, so it is no source of baskets by its description."""
    basket = _p("basketId", "ID of the basket", required=False)
    tools = [
        _tool("list_baskets", "List all baskets the user has access to", []),
        _tool("get_tags_for_basket", "Get all tags of a specific basket", [basket]),
        _tool("add_box_to_basket", "Add a box to a basket", [_p("basketId", "ID of the basket"), _p("name")]),
    ]
    _, _, candidates = wanted(tools)[("add_box_to_basket", "basketId")]
    assert "list_baskets" in candidates
    assert "get_tags_for_basket" not in candidates
