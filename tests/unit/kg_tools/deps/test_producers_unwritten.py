"""Candidates found on MCP servers no rule had been written on (kg_tools/deps/producers.py; eleventh session,
"recall on catalogs that no rule has been written on yet"). Made-up tool lists, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from tests.support.made_up_ops import wanted


def _tool(name: str, description: str, props: dict[str, dict]) -> ToolInfo:
    params = [{"name": n, "required": True, **p} for n, p in props.items()]
    schema = {"type": "object", "properties": props}  # kept by the MCP loader
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params, "input_schema": schema})


def _s(description: str, **more) -> dict:
    return {"type": "string", "description": description, **more}


def _rack() -> list[ToolInfo]:
    return [
        _tool("list-racks", "List all racks", {}),
        _tool("get-things-on-rack", "Retrieve all things on a specific rack", {"rackId": _s("ID of the rack")}),
        _tool("get-items-on-rack", "Retrieve all items on a specific rack", {"rackId": _s("ID of the rack")}),
        _tool("create-jar-item", "Create a jar item on a rack", {"rackId": _s("ID of the rack")}),
        _tool("create-box-item", "Create a box item on a rack", {"rackId": _s("ID of the rack")}),
        _tool("get-box-item", "Get a box item", {"rackId": _s("ID of the rack"), "itemId": _s("ID of the box")}),
        _tool("update-box-item", "Update a box item", {"itemId": _s("ID of the box")}),
        _tool("get-jar-item", "Get a jar item", {"itemId": _s("ID of the jar")}),
        _tool("update-jar-item", "Update a jar item", {"itemId": _s("ID of the jar")}),
        _tool("delete-item", "Delete an item from a rack", {"itemId": _s("ID of the item")}),
        _tool(
            "copy-rack",
            "Copy a rack",
            {"copyFrom": _s("Unique identifier (ID) of the rack that you want to copy"), "name": _s("New name")},
        ),
    ]


def test_a_generic_plural_before_its_scope_lists_that_generic_resource():
    """`get-items-on-rack` lists items (its resource key names the rack): a candidate for an `itemId`;
    `things` is no generic resource."""
    cands = wanted(_rack())[("delete-item", "itemId")][2]
    assert "get-items-on-rack" in cands and "get-things-on-rack" not in cands


def test_an_unqualified_listing_of_a_generic_resource_provides_every_kind_of_it():
    """`box item` and `jar item` are kinds of item; the listing of all items on a rack provides both, the create
    of the same kind is no longer the only candidate."""
    cands = wanted(_rack())[("get-box-item", "itemId")]
    assert cands[0] == ["item"] and "get-items-on-rack" in cands[2]
    assert "create-box-item" not in cands[2]


def test_an_identifier_of_described_role_parameter_wants_that_resource():
    """`copyFrom` "Unique identifier (ID) of the rack ..." wants a rack id; a create's own `name` still nothing."""
    found = wanted(_rack())
    assert found[("copy-rack", "copyFrom")][:2] == (["rack"], "id")
    assert "list-racks" in found[("copy-rack", "copyFrom")][2]


def _vault(name: str = "list") -> list[ToolInfo]:
    kinds = ["things", "folders", "org-members"]
    return [
        _tool(name, "List things from your vault", {"type": _s("Type of things to list", enum=kinds)}),
        _tool("remove_org_member", "Remove a member", {"memberId": _s("ID of the member")}),
        _tool("move_to_folder", "Move a thing to a folder", {"folderId": _s("ID of the folder")}),
        _tool("list_events", "List events", {"target_type": _s("Type of target", enum=["member", "folder"])}),
    ]


def test_a_listing_named_by_no_resource_lists_the_types_its_enum_chooses():
    """`list(type: folders, org-members)` lists members and folders; a named listing's type
    (`list_events(target_type)`) filters what its events refer to: no candidate."""
    found = wanted(_vault())
    assert "list" in found[("remove_org_member", "memberId")][2]
    assert "list_events" not in found[("remove_org_member", "memberId")][2]
    assert ("remove_org_member", "memberId") not in wanted(_vault("list_widgets"))  # a listing of widgets
