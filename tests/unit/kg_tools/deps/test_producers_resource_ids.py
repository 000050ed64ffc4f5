"""Ids named only by their resource (kg_tools/deps/producers.py, thirteenth session): a response's envelope member
names what it holds whatever the schema's title calls it (`{ok, gadgets: [<Widget>]}`), a noun parameter its
description calls an ID ("ID of widget to drop") wants that id, and a compact schema variant (`WidgetCompact`) is
the resource itself. Made-up specs only."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import offer_index, prepare, tool_kind
from kg_tools.deps.resources import schema_resource
from tests.support.made_up_ops import op, wanted

WIDGET = {"title": "Widget object", "type": "object", "properties": {"id": {"type": "string"}}}
# the items are one of several titled objects (`anyOf`), as a generated spec writes them
GADGETS = {"type": "array", "items": {"anyOf": [WIDGET]}}
ENVELOPE = {"type": "object", "properties": {"ok": {"type": "boolean"}, "gadgets": GADGETS}}


def _body(name: str, description: str, where: str = "body") -> dict:
    return {"name": name, "type": "string", "description": description, "required": True, "in": where}


def test_an_envelope_member_names_the_objects_it_holds():
    """`{ok, gadgets: [<Widget object>]}`: a `gadget` parameter finds the list, though its items are titled Widget."""
    tools = [
        op("widgets_list", "GET", "/widgets.list", [], output_schema=ENVELOPE),
        op("gadgets_archive", "POST", "/gadgets.archive", [_body("gadget", "Gadget to archive.")]),
    ]
    assert "widgets_list" in wanted(tools)[("gadgets_archive", "gadget")][2]


def _offered(tool: ToolInfo) -> set[tuple[str, str]]:
    tools = prepare([tool])
    for t in tools.values():
        t.kind = tool_kind(t)
    offer_index(tools)
    return {(o.resource, o.path) for o in tools[tool.name].offers}


def test_an_envelope_alias_needs_a_member_of_its_own_name():
    """A titled object under a generic member (`data`, `items`) gets no second name; under `gadgets` it does."""
    generic = {"type": "object", "properties": {"data": GADGETS}}
    assert {r for r, _ in _offered(op("widgets_list", "GET", "/widgets.list", [], output_schema=generic))} == {"widget"}
    named = _offered(op("widgets_list", "GET", "/widgets.list", [], output_schema=ENVELOPE))
    assert {("widget", "gadgets[].id"), ("gadget", "gadgets[].id")} <= named
    named_only = {"title": "Widget object", "type": "object", "properties": {"name": {"type": "string"}}}
    listed = {"type": "object", "properties": {"gadgets": {"type": "array", "items": {"anyOf": [named_only]}}}}
    assert ("gadget", "gadgets[].name") not in _offered(
        op("widgets_list", "GET", "/widgets.list", [], output_schema=listed)
    )


def test_a_noun_described_as_an_id_wants_that_id_and_the_resource_it_names():
    """`gadget`: "ID of widget to archive" is a widget's id, a gadget's first; "Gadget to rename" stays the gadget."""
    tools = [
        op("widgets_list", "GET", "/widgets.list", [], output_schema=ENVELOPE),
        op("gadgets_archive", "POST", "/gadgets.archive", [_body("gadget", "ID of widget to archive")]),
        op("gadgets_info", "GET", "/gadgets.info", [_body("gadget", "Widget ID to read.", "query")]),
    ]
    found = wanted(tools)
    assert found[("gadgets_archive", "gadget")][:2] == (["gadget", "widget"], "id")
    assert found[("gadgets_info", "gadget")][:2] == (["gadget", "widget"], "id")


def test_a_description_that_names_no_id_keeps_the_noun():
    """`gadget`: "The gadget to filter on" names no ID: the gadget itself, as before."""
    tools = [
        op("widgets_list", "GET", "/widgets.list", [], output_schema=ENVELOPE),
        op("things_list", "GET", "/things.list", [_body("gadget", "The gadget to filter on.", "query")]),
    ]
    assert wanted(tools)[("things_list", "gadget")][:2] == (["gadget"], "*")


def test_a_compact_schema_variant_is_the_resource():
    assert schema_resource("WidgetCompact") == "widget"
    assert schema_resource("Widget Lean") == "widget"
    assert schema_resource("WidgetResponse") == "widget"
