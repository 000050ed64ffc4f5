"""A bare identifier in the body of an operation whose path ends in a static segment (`body_subject`,
kg_tools/deps/producers.py, twentieth session). Small made-up specs and tool lists, no names of real ones."""

from __future__ import annotations

from tests.support.made_up_ops import described_tool, listing, op, required_string, wanted


def _body(name: str) -> dict:
    return {"name": name, "type": "string", "description": "", "required": True, "in": "body"}


def _leases() -> list:
    return [
        op("Lease_LeaseList", "POST", "/v9/lease/list", [], output_schema=listing("leases", "Lease")),
        op("Widget_List", "GET", "/widgets", [], output_schema=listing("widgets", "Widget")),
    ]


def test_a_body_id_after_an_action_segment_is_the_resource_before_it():
    """`POST /v9/lease/revoke {id}` (a gateway's call, the action after its resource): a lease's id, served by the
    lease list; the tool's name says lease too."""
    tools = [*_leases(), op("Lease_LeaseRevoke", "POST", "/v9/lease/revoke", [_body("ID")])]
    resources, field, producers = wanted(tools)[("Lease_LeaseRevoke", "ID")]
    assert resources[:1] == ["lease"] and field == "id" and producers == {"Lease_LeaseList"}


def test_an_action_segment_that_names_its_thing():
    """`POST /api/delete-widget {id}`: the widget the action names."""
    tools = [*_leases(), op("ApiDeleteWidget", "POST", "/api/delete-widget", [_body("id")])]
    assert wanted(tools)[("ApiDeleteWidget", "id")][0][:1] == ["widget"]


def test_a_change_of_the_resource_itself_takes_an_existing_one():
    """`PUT /widgets {id}` (no path template) changes the widget its body names."""
    tools = [*_leases(), op("updateWidget", "PUT", "/widgets", [_body("id")])]
    assert wanted(tools)[("updateWidget", "id")][0][:1] == ["widget"]


def test_a_body_id_of_a_new_thing_or_one_the_name_does_not_say_is_no_want():
    """A POST to the resource (`POST /widgets {id}`), a tool described as a create or an upsert (`PUT /widgets/upsert`)
    names a new one's own id; a
    resource the tool's name does not say (`setPayload` on `/widgets/payload`) is no reading of its `key`."""
    creates = op("Widget_Put", "PUT", "/widgets", [_body("id")], description="Create a widget.")
    tools = [
        *_leases(),
        op("addWidget", "POST", "/widgets", [_body("id")]),
        creates,
        op("setPayload", "POST", "/widgets/payload", [_body("key")]),
        op("upsertWidget", "PUT", "/widgets/upsert", [_body("key")]),
    ]
    found = wanted(tools)
    assert not {("addWidget", "id"), ("Widget_Put", "id"), ("setPayload", "key"), ("upsertWidget", "key")} & set(found)


def test_a_tool_named_resource_verb_takes_its_bare_id_from_the_name():
    """A tool list (no paths): `lease_delete(id)` deletes a lease, served by the tool that lists them (as before: the
    name's noun before its verb; `lease_revoke`, a verb the vocabulary does not know, is no want)."""
    tools = [*_leases(), described_tool("lease_delete", "Deletes one.", [required_string("id")])]
    resources, _, producers = wanted(tools)[("lease_delete", "id")]
    assert resources[:1] == ["lease"] and "Lease_LeaseList" in producers
