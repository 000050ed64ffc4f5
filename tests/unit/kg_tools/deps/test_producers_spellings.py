"""Identifier spellings and scoped lists of OpenAPI specs (kg_tools/deps/producers.py, eleventh session): an
identifier that takes either of two fields (`widgetIdOrKey`), a Java data-class title (`WidgetBean`), and a list
under another scope (a team's widgets) beside the list within the consumer's own scope. Made-up specs only."""

from __future__ import annotations

from kg_tools.deps.producers import Tool, _segment_resource, candidate_groups, rpc_resource, tool_kind
from kg_tools.deps.resources import schema_resource
from tests.support.made_up_ops import op, wanted

WIDGET = {"type": "object", "properties": {"id": {"type": "string"}, "key": {"type": "string"}}}


def _path(name: str) -> dict:
    return {"name": name, "type": "string", "description": "", "required": True, "in": "path"}


def test_an_identifier_of_either_field_names_the_thing_before_them():
    """`widgetIdOrKey`, `widget_id_or_slug`, `{id_or_name}` under /widgets: a widget, not a resource "id"."""
    listed = {"type": "array", "items": WIDGET}
    tools = [
        op("listWidgets", "GET", "/widgets", [], output_schema=listed),
        op("getWidget", "GET", "/widgets/{widgetIdOrKey}", [_path("widgetIdOrKey")]),
        op("dropWidget", "DELETE", "/w2/{widget_id_or_slug}", [_path("widget_id_or_slug")]),
        op("readWidget", "GET", "/widgets/{id_or_name}/info", [_path("id_or_name")]),
    ]
    found = wanted(tools)
    assert found[("getWidget", "widgetIdOrKey")][:2] == (["widget"], "id")
    assert found[("dropWidget", "widget_id_or_slug")][:2] == (["widget"], "id")
    assert found[("readWidget", "id_or_name")][:2] == (["widget"], "id")
    assert all("listWidgets" in found[k][2] for k in found)


def test_a_java_bean_title_names_its_resource():
    assert schema_resource("WidgetBean") == "widget"
    assert schema_resource("PageBeanWidget") == "widget"


def test_a_list_under_another_scope_is_not_kept_beside_the_list_within_the_consumers_scope():
    """`DELETE /widgets/{org}/{widget_id}`: the org's widget list (it needs only the org, which the consumer has) is
    kept by the rules, a team's widget list (it needs a team too) is not; without the org's list both are."""
    listed = {"type": "array", "items": WIDGET}
    org_list = op("listOrgWidgets", "GET", "/orgs/{org_id}/widgets", [_path("org_id")], output_schema=listed)
    team_list = op(
        "listTeamWidgets",
        "GET",
        "/teams/{org_id}/{team_id}/widgets",
        [_path("org_id"), _path("team_id")],
        output_schema=listed,
    )
    consumer = op("dropWidget", "DELETE", "/widgets/{org_id}/{widget_id}", [_path("org_id"), _path("widget_id")])

    def kept(tools) -> dict[str, bool]:
        _, groups = candidate_groups(tools)
        group = next(
            g for g in groups if g and g[0].consumer.name == "dropWidget" and g[0].want.parameter == "widget_id"
        )
        return {c.producer.name: c.kept_by_rules for c in group}

    assert kept([org_list, team_list, consumer]) == {"listOrgWidgets": True, "listTeamWidgets": False}
    assert kept([team_list, consumer])["listTeamWidgets"] is True


def test_a_bulk_change_of_a_collection_wants_its_instances():
    """`PUT|DELETE /gadgets/` with a list of gadget objects as the body updates or deletes existing gadgets (their
    list serves them); a bulk create (`POST`) or a body of plain strings wants none."""
    gadget = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}
    listed = {"type": "object", "properties": {"results": {"type": "array", "items": gadget}}}

    def bulk(name: str, method: str, items: dict) -> object:
        body = {"name": "body", "type": "array", "description": "", "required": True, "in": "body"}
        schema = {"type": "object", "properties": {"body": {"type": "array", "items": items}}}
        return op(name, method, "/api/gadgets/", [body], input_schema=schema)

    tools = [
        op("listGadgets", "GET", "/api/gadgets/", [], output_schema=listed),
        bulk("bulkUpdate", "PUT", gadget),
        bulk("bulkDelete", "DELETE", gadget),
        bulk("bulkCreate", "POST", gadget),
        bulk("bulkTag", "PATCH", {"type": "string"}),
    ]
    found = wanted(tools)
    for consumer in ("bulkUpdate", "bulkDelete"):
        assert found[(consumer, "body")][:2] == (["gadget"], "id") and "listGadgets" in found[(consumer, "body")][2]
    assert ("bulkCreate", "body") not in found and ("bulkTag", "body") not in found


def test_a_namespaced_rpc_call_and_a_short_form_segment():
    """`POST /gizmos.parts.list` lists the parts of a namespace (`gizmos.parts`), `/gizmos.parts.get` reads one;
    a two-letter segment that is a short form of a resource name (`/db/{name}`) names it, others (`/t/{id}`) none."""
    listing = Tool("x", "", [], http={"method": "POST", "path": "/api/gizmos.parts.list"})
    reading = Tool("y", "", [], http={"method": "POST", "path": "/api/gizmos.parts.get"})
    assert (tool_kind(listing), rpc_resource(listing)) == ("list", "part")
    assert (tool_kind(reading), rpc_resource(reading)) == ("get", "part")
    assert _segment_resource("db") == "database" and _segment_resource("t") is None


def test_the_identifier_a_copy_takes_names_the_original():
    """`POST /gadgets/clone {gadget_id}` makes a gadget from an existing one: its `gadget_id` wants a gadget (a
    create's own identifiers stay the new thing's)."""
    gadget = {"type": "object", "properties": {"id": {"type": "string"}}}
    body = {"name": "gadget_id", "type": "string", "description": "", "required": True, "in": "body"}
    tools = [
        op("listGadgets", "GET", "/gadgets", [], output_schema={"type": "array", "items": gadget}),
        op("cloneGadget", "POST", "/gadgets/clone", [body], output_schema=gadget),
        op("createGadget", "POST", "/gadgets", [body], output_schema=gadget),
    ]
    found = wanted(tools)
    assert found[("cloneGadget", "gadget_id")][:2] == (["gadget"], "id")
    assert ("createGadget", "gadget_id") not in found
