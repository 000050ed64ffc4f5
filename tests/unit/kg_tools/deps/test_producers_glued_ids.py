"""Identifier spellings that hid their resource (kg_tools/deps/producers.py, sixteenth session): a lower-case id glued
to its resource (`gizmoid`, `podid` of a catalog listing `pods`), `list_id` (the resource "list" read as a verb), and
a want normalised by SYNONYMS that meets the producer's name again (`folder_id` -> directory, `list_folders`).
Made-up tools only."""

from __future__ import annotations

from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import described_tool as _tool
from tests.support.made_up_ops import wanted


def _p(name: str, description: str = "", kind: str = "string", required: bool = True) -> dict:
    return {"name": name, "type": kind, "description": description, "required": required}


def test_a_glued_lower_case_id_wants_the_resource_its_head_names():
    """`gizmoid` of a catalog that lists gizmos is a gizmo's id, `gizmoids` many gizmos' ids, `vmid` a VM's (an
    `instance` by SYNONYMS; `vms`, a plural of three letters, names it too); the candidates are the lists named after
    them."""
    tools = [
        _tool("list_gizmos", "List all gizmos.", []),
        _tool("list_vms", "List all virtual machines.", []),
        _tool("reboot_gizmo", "Reboot a gizmo.", [_p("gizmoid", "The gizmo's numeric ID", "integer")]),
        _tool("restart_vm", "Restart a VM.", [_p("vmid", "The numeric ID of the VM", "integer")]),
        _tool("tag_gizmos", "Tag gizmos.", [_p("gizmoids", "Gizmos to tag", "array")]),
    ]
    found = wanted(tools)
    assert found[("reboot_gizmo", "gizmoid")][:2] == (["gizmo"], "id")
    assert "list_gizmos" in found[("reboot_gizmo", "gizmoid")][2]
    assert found[("restart_vm", "vmid")][:2] == (["instance"], "id")
    assert "list_vms" in found[("restart_vm", "vmid")][2]
    assert found[("tag_gizmos", "gizmoids")][:2] == (["gizmo"], "id")


def test_a_word_that_only_ends_in_id_or_key_wants_nothing():
    """`valid`, `android`, `passkey`: their heads name no resource of the catalog; `uuid` stays a bare identifier."""
    tools = [
        _tool("list_gizmos", "List all gizmos.", []),
        _tool("check_gizmo", "Check a gizmo.", [_p("valid", "", "boolean"), _p("android"), _p("passkey")]),
    ]
    found = wanted(tools)
    assert not {k for k in found if k[0] == "check_gizmo"}


def test_list_id_wants_a_list_when_the_catalog_offers_lists():
    """`list_id`, `listId`: a list of the catalog's (`get_lists` offers lists), not a task the tool's name names; in a
    catalog without lists it stays as it was."""
    tools = [
        _tool("get_lists", "Returns the lists of a board.", []),
        _tool("add_card_to_list", "Add a card to a list.", [_p("list_id", "The list's ID")]),
        _tool("archive_list", "Archive a list.", [_p("listId", "ID of the list")]),
    ]
    found = wanted(tools)
    assert found[("add_card_to_list", "list_id")][:2] == (["list"], "id")
    assert "get_lists" in found[("archive_list", "listId")][2]
    without = wanted([t for t in tools if t.name != "get_lists"])
    assert without.get(("add_card_to_list", "list_id"), ([], "", set()))[0] != ["list"]


def test_a_synonym_want_meets_the_name_it_was_said_in():
    """`folder_id` wants a `directory` (SYNONYMS); `list_folders` is still named after what it wants."""
    tools = [
        _tool("list_folders", "List the folders of a space.", []),
        _tool("get_folder", "Get a folder.", [_p("folder_id", "The folder ID")]),
    ]
    _, groups = candidate_groups(tools)
    group = next(g for g in groups if g and g[0].want.parameter == "folder_id")
    assert group[0].want.resources == ["directory"]
    assert {c.producer.name: c.resource_in_name for c in group}["list_folders"] is True


def test_sub_things_named_by_the_said_word_list_the_wanted_kind():
    """`list_sub_folders(parent_folder_id)` lists folders under one it is given: for a `folder_id` (a `directory` by
    SYNONYMS) it is a provider like `list_subdirectories`, not a lookup of the one it takes; `list_folder_files` takes a
    folder and lists files, still a lookup."""
    tools = [
        _tool("list_sub_folders", "List all child folders of a given parent folder.", [_p("parent_folder_id")]),
        _tool("list_subfolders", "List the child folders of a folder.", [_p("folder_id")]),
        _tool("list_folder_files", "List the folders and files of a folder.", [_p("folder_id")]),
        _tool("delete_folder", "Delete a folder.", [_p("folder_id", "The folder ID")]),
    ]
    producers = wanted(tools)[("delete_folder", "folder_id")][2]
    assert {"list_sub_folders", "list_subfolders"} <= producers
    assert "list_folder_files" not in producers
