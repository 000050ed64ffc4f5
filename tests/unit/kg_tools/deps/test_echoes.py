"""Candidates that only echo the consumer's own value (kg_tools/deps/echoes.py; nineteenth session). Made-up tools."""

from __future__ import annotations

from kg_tools.deps.echoes import acts_on_wanted, echoed_nested
from kg_tools.deps.producers import Tool, Want
from kg_tools.deps.resources import Offer


def _reader(name: str, *offers: Offer) -> Tool:
    return Tool(name, "Get one plan.", [{"name": "plan_id", "required": True}], offers=list(offers), kind="get")


def _grouping_want() -> Want:
    return Want("plan.steps[].bundle_id", ["bundle"], "id", False, nested=True)


def test_a_nested_value_echoed_under_the_same_object_is_no_source():
    """`plan.steps[].bundle_id` (a number the caller picks) read back from `get_plan`'s `plan.steps[].bundles_id`."""
    echo = Offer("get_plan", "bundle", "id", "plan.steps[].bundles_id", False, "schema", reference=True)
    assert echoed_nested(_grouping_want(), echo, {"get_plan": _reader("get_plan", echo)})


def test_a_resource_some_tool_returns_as_its_own_is_kept():
    echo = Offer("get_plan", "bundle", "id", "plan.steps[].bundle_id", False, "schema", reference=True)
    own = Offer("list_bundles", "bundle", "id", "bundles[].id", primary=True, source="schema")
    tools = {"get_plan": _reader("get_plan", echo), "list_bundles": _reader("list_bundles", own)}
    assert not echoed_nested(_grouping_want(), echo, tools)


def test_the_same_field_under_another_object_is_kept():
    """`orders[].bundle_id` is a reference held by another object, not the echo of `steps[]`."""
    other = Offer("list_orders", "bundle", "id", "orders[].bundle_id", False, "schema", reference=True)
    assert not echoed_nested(_grouping_want(), other, {"list_orders": _reader("list_orders", other)})


def test_a_nested_object_s_own_id_read_from_its_parent_is_kept():
    """`plan.steps[].id`: a step's own id, which a read of its plan hands out."""
    own = Offer("get_plan", "step", "id", "plan.steps[].id", primary=False, source="schema")
    want = Want("plan.steps[].id", ["step"], "id", False, nested=True)
    assert not echoed_nested(want, own, {"get_plan": _reader("get_plan", own)})


def _action(description: str) -> Tool:
    params = [{"name": "hostname", "type": "string", "required": True}]
    return Tool("node_discover", description, params, kind="list")


def test_an_action_named_with_a_listing_verb_is_no_source_of_its_own_parameter():
    want = Want("hostname", ["node"], "name", True)
    assert acts_on_wanted(_action("Trigger node rediscovery in the monitor."), want)
    assert not acts_on_wanted(_action("Start a scan that returns the nodes found."), want)
    assert not acts_on_wanted(_action("Trigger node rediscovery."), Want("node_name", ["node"], "name", True))
