"""A create's own `name` or `title` names the new instance, not another tool's output (kg_tools/deps/producers.py
`_names_the_new`; seventeenth session, "a create's own name is no reference"). Made-up tool lists."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from tests.support.made_up_ops import wanted


def _tool(name: str, description: str, props: dict[str, dict]) -> ToolInfo:
    params = [{"name": n, "required": True, **p} for n, p in props.items()]
    schema = {"type": "object", "properties": props}
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params, "input_schema": schema})


def _s(description: str) -> dict:
    return {"type": "string", "description": description}


def _tools() -> list[ToolInfo]:
    return [
        _tool("list_flange_names", "List the names of all flanges", {}),
        _tool("list_pulleys", "List all pulleys", {}),
        _tool("get_pulley", "Get a pulley", {"pulley_id": _s("ID of the pulley")}),
        _tool(
            "create_pulley_stage",
            "Create a stage of a pulley",
            {"name": _s("Name of the pulley stage"), "pulley_id": _s("ID of the pulley")},
        ),
        _tool("create_gasket", "Create a gasket", {"name": _s("The name")}),
        _tool("update_pulley", "Update a pulley", {"name": _s("Name of the pulley")}),
    ]


def test_a_creates_name_read_as_a_name_of_anything_wants_nothing():
    """`create_gasket(name)` is not fed by a listing of some other thing's names."""
    assert ("create_gasket", "name") not in wanted(_tools())


def test_a_creates_name_read_as_its_compounds_head_wants_nothing():
    """`create_pulley_stage(name)` names the new stage, not a pulley; its `pulley_id` still wants a pulley."""
    found = wanted(_tools())
    assert ("create_pulley_stage", "name") not in found
    assert found[("create_pulley_stage", "pulley_id")][:2] == (["pulley"], "id")


def test_an_updates_name_still_names_an_existing_instance():
    """Updates address things by name: `update_pulley(name)` keeps its want."""
    assert wanted(_tools())[("update_pulley", "name")][:2] == (["pulley"], "name")


def _more_tools() -> list[ToolInfo]:
    return [
        _tool("list_sprockets", "List all sprockets", {}),
        _tool("get_sprocket_by_slug", "Get a sprocket by its slug", {"slug": _s("Slug of the sprocket")}),
        _tool("list_binder_pages", "List the pages of a binder", {}),
        _tool("list_gizmo_displays", "List the displays of gizmos", {}),
        _tool("create_sprocket", "Create a sprocket", {"slug": _s("URL slug for the sprocket"), "size": _s("Size")}),
        _tool("add_binder", "Add a binder", {"name": _s("Name of the binder page")}),
        _tool("create_gizmo", "Create a gizmo", {"displayName": _s("Gizmo display name")}),
        _tool("update_sprocket", "Update a sprocket", {"slug": _s("Slug of the sprocket")}),
    ]


def test_a_creates_slug_and_display_name_name_the_new_instance():
    """`create_sprocket(slug)` is the new sprocket's slug, `create_gizmo(displayName)` the new gizmo's name (not a
    "display" of `list_gizmo_displays`)."""
    found = wanted(_more_tools())
    assert ("create_sprocket", "slug") not in found
    assert ("create_gizmo", "displayName") not in found


def test_a_creates_name_read_as_a_word_not_of_its_name_wants_nothing():
    """`add_binder(name)` "Name of the binder page" names the new binder, not a page of `list_binder_pages`."""
    assert ("add_binder", "name") not in wanted(_more_tools())


def test_an_updates_slug_still_names_an_existing_instance():
    """`update_sprocket(slug)` keeps its want."""
    assert wanted(_more_tools())[("update_sprocket", "slug")][0][:1] == ["sprocket"]
