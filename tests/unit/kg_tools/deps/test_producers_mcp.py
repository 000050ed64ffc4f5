"""Candidates of MCP-style tool lists (names, descriptions, input schemas, rarely output schemas; tenth session,
"MCP servers"). Small made-up tool lists, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from kg_tools.deps.scoring import Scorer, select
from tests.support.made_up_ops import described_tool as _tool
from tests.support.made_up_ops import wanted


def _p(name: str, description: str = "", required: bool = True, type_: str = "string") -> dict:
    return {"name": name, "type": type_, "description": description, "required": required}


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


def test_a_search_of_things_in_a_scope_is_scoped_by_it_even_without_an_offer():
    """`search_tags_in_basket(basketId?)` searches tags inside one basket: named after a basket but scoped by it, so it
    is no candidate for a basket id even when no offer of its own finds it (eleventh session, review leftover)."""
    basket = _p("basketId", "ID of the basket", required=False)
    tools = [
        _tool("list_baskets", "List all baskets the user has access to", []),
        _tool("search_tags_in_basket", "Search tags by label", [basket, _p("q", "words", False)]),
        _tool("add_box_to_basket", "Add a box to a basket", [_p("basketId", "ID of the basket"), _p("name")]),
    ]
    _, _, candidates = wanted(tools)[("add_box_to_basket", "basketId")]
    assert candidates == {"list_baskets"}


def test_adding_an_existing_thing_to_another_wants_its_identifier():
    """`add_crate_to_vessel(crate_id, vessel_id)` puts an existing crate on a vessel: its crate id is looked up, not a
    new crate's; `create_crate(name)` still names a new one."""
    tools = [
        _tool("list_crates", "List all crates", []),
        _tool("list_vessels", "List all vessels", []),
        _tool("create_crate", "Create a crate", [_p("name", "Name of the new crate")]),
        _tool(
            "add_crate_to_vessel",
            "Add a crate to a vessel",
            [_p("crate_id", "The crate"), _p("vessel_id", "The vessel")],
        ),
    ]
    found = wanted(tools)
    assert "list_crates" in found[("add_crate_to_vessel", "crate_id")][2]
    assert ("create_crate", "name") not in found


def test_a_reader_of_sub_things_or_children_lists_things_of_the_same_kind():
    """`get_subcrates(crate_id)` and `get_crate_children(crate_id)` take a crate and return crates: they are sources of
    crate ids, not lookups of the crate they take; a reader of another thing that takes a crate (`get_crate_labels`)
    is not."""
    crate = _p("crate_id", "The crate")
    tools = [
        _tool("get_subcrates", "Get the subcrates of a crate", [crate]),
        _tool("get_crate_children", "Get the children of a crate", [crate]),
        _tool("get_crate_labels", "Get the labels of a crate", [crate]),
        _tool("ship_crate", "Ship a crate", [_p("crate_id", "The crate to ship")]),
    ]
    _, groups = candidate_groups(tools)
    group = next(g for g in groups if g and g[0].consumer.name == "ship_crate")
    found = {c.producer.name: c for c in group}
    assert {"get_subcrates", "get_crate_children"} <= set(found)
    assert not found["get_subcrates"].lookup and not found["get_crate_children"].lookup
    assert "get_crate_labels" not in found


def test_a_list_named_by_the_plural_of_what_it_takes_lists_the_ones_inside_it():
    """`list_crates(crate_id)` "List crates in a given crate" takes a crate and returns crates (a tree's level): a
    source of crate ids; not a list with more words in its name (`list_crate_labels`), nor one given several crates
    (`list_crates_by_ids(crate_ids)` hands the same ones back)."""
    tools = [
        _tool("list_crates", "List crates in a given crate", [_p("crate_id", "The crate to list in")]),
        _tool("list_crate_labels", "List the labels of a crate", [_p("crate_id", "The crate")]),
        _tool("get_crates", "Get several crates", [_p("crate_ids", "The crates", type_="array")]),
        _tool("ship_crate", "Ship a crate", [_p("crate_id", "The crate to ship")]),
    ]
    _, groups = candidate_groups(tools)
    group = next(g for g in groups if g and g[0].consumer.name == "ship_crate")
    found = {c.producer.name: c for c in group}
    assert "list_crates" in found and not found["list_crates"].lookup
    assert "list_crate_labels" not in found
    assert "get_crates" not in found or found["get_crates"].lookup


def test_a_search_returns_the_types_it_is_asked_for_whatever_scope_it_takes():
    """`find(kind, vesselIds?)` finds vessels, crates or ports as its `kind` enum chooses; the vessel ids it takes scope
    the crate search: it is still a source of vessel ids (eleventh session)."""
    kind = {"name": "kind", "type": "string", "description": "The type of thing", "enum": ["VESSEL", "CRATE", "PORT"]}
    vessels = _p("vesselIds", "Vessel IDs to scope to", False)
    tools = [
        ToolInfo.from_raw(
            {
                "name": "find",
                "description": "Find things on the platform",
                "parameters": [kind, vessels],
                "input_schema": {"type": "object", "properties": {"kind": kind, "vesselIds": vessels}},
            }
        ),
        _tool("dock_vessel", "Dock a vessel", [_p("vessel_id", "The vessel ID to dock")]),
        _tool("open_crate", "Open a crate", [_p("crate_id", "The crate")]),
        _tool("visit_port", "Visit a port", [_p("port_id", "The port")]),
    ]
    found = wanted(tools)
    assert "find" in found[("dock_vessel", "vessel_id")][2]
    assert "find" in found[("open_crate", "crate_id")][2]


def test_an_output_schema_with_local_refs_offers_what_they_point_to():
    """Pydantic writes an MCP tool's output as `$ref`s into `$defs` (`{"response": {"items": {"$ref":
    "#/$defs/CrateSummary"}}}`): the crates' ids are offered as if the schema were written out; a cycle stays a
    reference."""
    out = {
        "$defs": {
            "CrateSummary": {
                "title": "CrateSummary",
                "type": "object",
                "properties": {"id": {"type": "string"}, "parent": {"$ref": "#/$defs/CrateSummary"}},
            }
        },
        "type": "object",
        "properties": {"response": {"type": "array", "items": {"$ref": "#/$defs/CrateSummary"}}},
    }
    tools = [
        ToolInfo.from_raw(
            {"name": "list_crates", "description": "List crates", "parameters": [], "output_schema": out}
        ),
        _tool("open_crate", "Open a crate", [_p("crate_id", "The crate")]),
    ]
    _, groups = candidate_groups(tools)
    offers = {c.producer.name: c.offer for g in groups for c in g if c.consumer.name == "open_crate"}
    assert offers["list_crates"] is not None and offers["list_crates"].source == "schema"
    assert offers["list_crates"].path == "response[].id"


def test_a_name_another_object_copies_is_no_source_of_it():
    """`alarms[].gauge_name` of an alarm list is the alarm's copy of a gauge's name, not a list of gauges: no candidate
    for a `gauge_name`; an alarm list still provides alarm names."""
    alarm = {
        "type": "object",
        "properties": {"alarm_name": {"type": "string"}, "gauge_name": {"type": "string"}},
    }
    out = {"type": "object", "properties": {"alarms": {"type": "array", "items": alarm}}}
    tools = [
        ToolInfo.from_raw(
            {"name": "list_alarms", "description": "List alarms", "parameters": [], "output_schema": out}
        ),
        _tool("read_gauge", "Read a gauge", [_p("gauge_name", "The gauge")]),
        _tool("mute_alarm", "Mute an alarm", [_p("alarm_name", "The alarm")]),
    ]
    found = wanted(tools)
    assert "list_alarms" not in found.get(("read_gauge", "gauge_name"), ([], "", set()))[2]
    assert "list_alarms" in found[("mute_alarm", "alarm_name")][2]


def test_a_parent_named_by_its_role_is_an_existing_thing_of_the_same_kind():
    """`create_crate(name, parent?)`, `list_crates(parent_id?)` and `create_crate_note(parentNoteId?)`: a parent named by
    its role is an existing crate (or note), even for the create of one, not a new value nor an unknown `parent`."""
    tools = [
        _tool("list_crates", "List crates", [_p("parent_id", "The parent", False)]),
        _tool("create_crate", "Create a crate", [_p("name", "Name"), _p("parent", "The parent", False)]),
        _tool("list_crate_notes", "List the notes of crates", []),
        _tool("create_crate_note", "Create a note", [_p("text"), _p("parentNoteId", "Reply to this note", False)]),
    ]
    found = wanted(tools)
    assert found[("create_crate", "parent")][:2] == (["crate"], "id")
    assert "list_crates" in found[("create_crate", "parent")][2]
    assert found[("list_crates", "parent_id")][:2] == (["crate"], "id")
    assert "list_crate_notes" in found[("create_crate_note", "parentNoteId")][2]


def test_an_undescribed_number_named_after_a_listed_resource_is_its_id():
    """`file_letter(sender: number)` with no description, beside `list_senders`: a number cannot be a sender's name,
    so it is a sender's id (fourteenth session). Described otherwise (`count: number` "How many"), or named after no
    resource of the catalog (`copies`), it names nothing."""
    tools = [
        _tool("list_senders", "List all senders", []),
        _tool(
            "file_letter",
            "File a letter",
            [_p("sender", type_="number"), _p("copies", type_="integer"), _p("title")],
        ),
        _tool("count_letters", "Count letters", [_p("sender", "How many senders to count", type_="number")]),
    ]
    wants = wanted(tools)
    resources, field, candidates = wants[("file_letter", "sender")]
    assert (resources, field) == (["sender"], "id")
    assert "list_senders" in candidates
    assert ("file_letter", "copies") not in wants
    assert ("count_letters", "sender") not in wants


def test_an_undescribed_number_in_a_body_is_a_value_not_an_id():
    """An HTTP body's `rollout: number` beside `GET /rollouts` is a share a person gives, not a rollout's id."""
    tools = [
        ToolInfo.from_raw(
            {
                "name": "listRollouts",
                "description": "List rollouts",
                "parameters": [],
                "http": {"method": "GET", "path": "/rollouts"},
            }
        ),
        ToolInfo.from_raw(
            {
                "name": "createDistribution",
                "description": "Create a distribution",
                "parameters": [{**_p("rollout", type_="number"), "in": "body"}],
                "http": {"method": "POST", "path": "/distributions"},
            }
        ),
    ]
    assert ("createDistribution", "rollout") not in wanted(tools)


def test_an_undescribed_number_named_by_a_resources_plural_is_a_count():
    """`update_zone(crates: integer)` with no description, beside `list_crates`: how many crates a zone may hold (a
    limit), not a crate's id; the singular `crate: integer` still is one."""
    tools = [
        _tool("list_crates", "List all crates", []),
        _tool("update_zone", "Update a zone", [_p("zone"), _p("crates", required=False, type_="integer")]),
        _tool("move_zone", "Move a zone", [_p("zone"), _p("crate", type_="integer")]),
    ]
    wants = wanted(tools)
    assert ("update_zone", "crates") not in wants
    assert wants[("move_zone", "crate")][:2] == (["crate"], "id")


def test_a_getter_of_optional_identifiers_reads_one_it_is_given_even_with_an_output_schema():
    """`get_crate(crate_id?, crate_name?, shelf_id?)` "Get a crate by ID or name" with an output schema: every parameter
    an optional identifier, of the crate or of its shelf: no source of a crate's id (the crate list is); a getter that
    also takes a free filter (`get_crate_report(crate_id?, since?)`) stays a candidate."""
    out = {"output_schema": {"type": "object", "properties": {"result": {"type": "object"}}}}
    ids = [
        _p("crate_id", "Crate ID", required=False, type_="integer"),
        _p("crate_name", "Crate name (exact)", required=False),
        _p("shelf_id", "Shelf ID", required=False, type_="integer"),
    ]
    report = [_p("crate_id", "Crate ID", required=False, type_="integer"), _p("since", "Start date", required=False)]
    tools = [
        ToolInfo.from_raw({"name": "get_crate", "description": "Get a crate by ID or name", "parameters": ids, **out}),
        ToolInfo.from_raw(
            {"name": "get_crate_report", "description": "Get a crate report", "parameters": report, **out}
        ),
        _tool("list_crates", "List all crates", []),
        _tool("open_crate", "Open a crate", [_p("crate_id", "Crate ID", type_="integer")]),
    ]
    candidates = wanted(tools)[("open_crate", "crate_id")][2]
    assert "list_crates" in candidates and "get_crate_report" in candidates
    assert "get_crate" not in candidates
