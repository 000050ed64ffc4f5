"""Speakeasy's `<group>-<operation>` tool names (an npm SDK's MCP server, no HTTP, every identifier a bare `id`):
the group a name opens with owns the bare identifier when the operation's object is things of it or no resource
(`customers-list-subscriptions(id)`), and an operation the verbs do not hold is no resource
(`subscriptions-resume(id)`). Shapes from the twenty-seventh session's first contact (docs/dependencies.md)."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups

ID = {"name": "id", "type": "string", "description": "", "required": True}
PAGE = {"name": "pageNumber", "type": "number", "description": "", "required": False}


def _tool(name: str, description: str, params: list[dict]) -> ToolInfo:
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params})


def _candidates(tools: list[ToolInfo]) -> dict[tuple[str, str], set[str]]:
    _, groups = candidate_groups(tools)
    return {(g[0].consumer.name, g[0].want.parameter): {c.producer.name for c in g} for g in groups if g}


def _catalog() -> list[ToolInfo]:
    customer_id = {"name": "customerId", "type": "string", "description": "", "required": False}
    return [
        _tool("customers-list", "List all customers  Retrieve a paginated list of customers.", [PAGE]),
        _tool("customers-retrieve", "Retrieve a customer", [customer_id]),
        _tool(
            "customers-list-subscriptions",
            "List customer subscriptions  Retrieve a paginated list of subscriptions for a specific customer.",
            [ID, PAGE],
        ),
        _tool("customers-get-orders", "List customer orders", [ID, PAGE]),
        _tool("subscriptions-search", "List all subscriptions", [PAGE]),
        _tool("subscriptions-pause", "Pause a subscription.", [ID]),
        _tool("subscriptions-resume", "Resume a subscription. Must be in paused or scheduled_cancel status.", [ID]),
        _tool("accounts-list", "List customer credits accounts", [PAGE]),
        _tool("accounts-get-account", "Retrieve a customer credits account", [ID]),
    ]


def test_the_group_before_the_verb_owns_the_bare_id_of_its_things():
    found = _candidates(_catalog())
    assert "customers-list" in found[("customers-list-subscriptions", "id")]
    assert "subscriptions-search" not in found[("customers-list-subscriptions", "id")]
    assert "customers-list" in found[("customers-get-orders", "id")]


def test_a_singular_known_object_after_the_verb_keeps_the_bare_id():
    found = _candidates(_catalog())
    assert found[("accounts-get-account", "id")] == {"accounts-list"}


def test_an_operation_the_verbs_do_not_hold_names_no_resource():
    found = _candidates(_catalog())
    assert "subscriptions-search" in found[("subscriptions-resume", "id")]
    assert found[("subscriptions-resume", "id")] == found[("subscriptions-pause", "id")]


def test_a_path_says_whose_the_id_is():
    """With HTTP the path's segment decides (`/v1/subscriptions/{id}`), not the name's group."""
    http = {"method": "GET", "path": "/v1/subscriptions/{id}"}
    tools = [
        *_catalog()[:5],
        ToolInfo.from_raw(
            {"name": "customers-list-subs", "description": "List subscriptions.", "parameters": [ID], "http": http}
        ),
    ]
    found = _candidates(tools)
    assert "customers-list" not in found.get(("customers-list-subs", "id"), set())
