"""Precision guards of the fourteenth session (kg_tools/deps/producers.py `_field_of_one`, the STOP word `only`).
Small made-up tool lists, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import described_tool as _tool
from tests.support.made_up_ops import wanted


def _p(name: str, description: str = "", required: bool = True, type_: str = "string") -> dict:
    return {"name": name, "type": type_, "description": description, "required": required}


def _pairs(tools: list[ToolInfo]) -> set[tuple[str, str, str]]:
    _, groups = candidate_groups(tools)
    return {(c.consumer.name, c.want.parameter, c.producer.name) for g in groups for c in g}


def _ledger() -> list[ToolInfo]:
    return [
        _tool("list_clients", "List all clients of the ledger", []),
        _tool(
            "get_receipt",
            "Fetch a single receipt by ID with full details. Returns client, date, amount, memo.",
            [_p("id", "The receipt ID")],
        ),
        _tool(
            "create_order",
            "Create an order for a client",
            [_p("client_name", "Client display name"), _p("amount", type_="number")],
        ),
        _tool(
            "edit_receipt",
            "Modify an existing receipt",
            [_p("id", "Receipt ID to edit"), _p("client_name", "New client display name", required=False)],
        ),
    ]


def test_a_field_a_reader_of_one_instance_returns_is_no_source_for_other_consumers():
    """`get_receipt(id)` "Returns client, date, amount": the client is a field of the receipt read, no source of a
    client for `create_order` (`list_clients` is); it stays one for `edit_receipt`, which edits that very receipt."""
    found = _pairs(_ledger())
    assert ("create_order", "client_name", "list_clients") in found
    assert ("create_order", "client_name", "get_receipt") not in found
    assert ("edit_receipt", "client_name", "get_receipt") in found


def test_contents_a_reader_of_one_instance_names_in_the_plural_stay_its_offers():
    """`get_shelf_layout(shelf_id)` "Get shelf layout (slots and rows) by shelf id": its slots are the shelf's own
    things, found there by any tool that takes a slot."""
    tools = [
        _tool("get_shelf_layout", "Get shelf layout (slots and rows) by shelf id", [_p("shelf_id", "The shelf ID")]),
        _tool("fill_slot", "Put a box into a slot", [_p("slot_id", "ID of the slot"), _p("box", required=False)]),
    ]
    resources, _, candidates = wanted(tools)[("fill_slot", "slot_id")]
    assert resources == ["slot"]
    assert "get_shelf_layout" in candidates


def test_only_is_no_resource():
    """The words "lists generated exports only" name no `only` that an `id` ("Return only the IDs specified") wants."""
    tools = [
        _tool("list_exports", "This tool will list exports. This lists generated exports only.", []),
        _tool(
            "list_widgets",
            "List widgets in the account",
            [_p("id", "Return only the IDs specified", required=False, type_="array")],
        ),
    ]
    assert not any(p == "list_exports" for _, _, p in _pairs(tools))


def test_a_name_that_ends_with_users_lists_users_not_its_qualifier():
    """`get_team_users(teamId?)` "Returns list of users in a specific team" lists users: a source of a user id, not
    of a team id (`users`, too common in descriptions to name a resource there, is the thing a name ends with)."""
    tools = [
        _tool("get_teams", "Returns list of teams", []),
        _tool("get_team_users", "Returns list of users in a specific team", [_p("teamId", "Team ID", required=False)]),
        _tool("add_ticket", "Adds a ticket", [_p("teamId", "Team ID"), _p("assigneeId", "Assignee user ID")]),
        _tool("count_stars", "Counts a user's stars", [_p("userId", "User ID")]),
    ]
    found = _pairs(tools)
    assert ("add_ticket", "teamId", "get_teams") in found
    assert ("add_ticket", "teamId", "get_team_users") not in found
    assert ("count_stars", "userId", "get_team_users") in found
