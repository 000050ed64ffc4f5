"""GETs whose path says their items are not the wanted resource (kg_tools/deps/producers.py `lists_other_things`;
twelfth session, "precision on first contact"). Small made-up specs, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import op


def _p(name: str) -> dict:
    return {"name": name, "type": "string", "description": "", "required": True, "in": "path"}


def _items(title: str, *fields: str) -> dict:
    return {
        "type": "array",
        "items": {"title": title, "type": "object", "properties": {f: {"type": "string"} for f in fields}},
    }


def _candidates(tools: list) -> set[tuple[str, str, str]]:
    _, groups = candidate_groups(tools)
    return {(c.consumer.name, c.want.parameter, c.producer.name) for g in groups for c in g}


def test_a_list_inside_one_instance_of_the_resource_is_no_source_of_its_id():
    """`/me/box/sharedByMe` lists what my box shares (items titled `box`), not boxes; `/me/box` itself is my box;
    `/shelf/recent` under a collection read by `/shelf/{id}` does list shelves."""
    boxes = {"type": "object", "properties": {"value": _items("box", "id", "name")}}
    shelves = _items("shelf", "id", "name")
    tools = [
        op("list_boxes", "GET", "/boxes", [], output_schema=boxes),
        op(
            "get_my_box",
            "GET",
            "/me/box",
            [],
            output_schema={"title": "box", "type": "object", "properties": {"id": {"type": "string"}}},
        ),
        op("list_shared", "GET", "/me/box/sharedByMe", [], output_schema=boxes),
        op("delete_box", "DELETE", "/boxes/{box_id}", [_p("box_id")]),
        op("list_recent_shelves", "GET", "/shelf/recent", [], output_schema=shelves),
        op("get_shelf", "GET", "/shelf/{shelf_id}", [_p("shelf_id")]),
        op("empty_shelf", "POST", "/shelves/{shelf_id}/empty", [_p("shelf_id")]),
    ]
    found = _candidates(tools)
    assert ("delete_box", "box_id", "list_boxes") in found
    assert ("delete_box", "box_id", "get_my_box") in found
    assert ("delete_box", "box_id", "list_shared") not in found
    assert ("empty_shelf", "shelf_id", "list_recent_shelves") in found


def test_a_parents_links_to_a_resource_are_no_source_of_its_own_id():
    """`/plans/{planId}/extras` lists a plan's extras, each with an id of its own (`{planExtraId}`), while `/extras`
    lists the extras: no provider of an `extraId`; it is one of a `planExtraId`."""
    extras = _items("Extra", "id", "name")
    links = _items("PlanExtra", "id", "name")
    tools = [
        op("list_extras", "GET", "/extras", [], output_schema=extras),
        op("get_extra", "GET", "/extras/{extraId}", [_p("extraId")]),
        op("list_plan_extras", "GET", "/plans/{planId}/extras", [_p("planId")], output_schema=links),
        op("get_plan_extra", "GET", "/plans/{planId}/extras/{planExtraId}", [_p("planId"), _p("planExtraId")]),
    ]
    found = _candidates(tools)
    assert ("get_extra", "extraId", "list_extras") in found
    assert ("get_extra", "extraId", "list_plan_extras") not in found
    assert ("get_plan_extra", "planExtraId", "list_plan_extras") in found


def test_a_generic_noun_qualified_by_another_thing_names_no_source():
    """ "The record to group by, from the event data" names no `list_app_data` (a generic noun, `data`, qualified by
    what the tool is not named after); "from the app data" and "from the all data" still name it."""
    tools = [
        ToolInfo.from_raw({"name": "list_app_data", "description": "Lists app data.", "parameters": []}),
        *(
            ToolInfo.from_raw(
                {
                    "name": name,
                    "description": "Creates a meter.",
                    "parameters": [{"name": "data_id", "type": "string", "description": f"Record to group by, {text}"}],
                }
            )
            for name, text in [
                ("create_meter", "from the event data"),
                ("create_gauge", "from the app data"),
                ("create_dial", "from the all data"),
            ]
        ),
    ]
    fixed, _ = candidate_groups(tools)
    pairs = {(p.source, p.target) for p in fixed}
    assert ("create_meter", "list_app_data") not in pairs
    assert ("create_gauge", "list_app_data") in pairs
    assert ("create_dial", "list_app_data") in pairs
