"""Description hints that are not sources (docs/dependencies.md, "eighteenth session: description hints that are not
sources"): a create named for a format, body or setting, a phrase naming the owner of the source."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from kg_tools.deps.resources import source_phrases
from tests.support.made_up_ops import described_tool as _tool


def _param(name: str, description: str) -> dict:
    return {"name": name, "type": "string", "description": description, "required": True}


def _fixed(tools: list[ToolInfo]) -> set[tuple[str, str, str | None]]:
    fixed, _ = candidate_groups(tools)
    return {(p.source, p.target, p.parameter_name) for p in fixed}


def test_a_create_named_in_a_parameter_description_supplies_only_an_identifier():
    """ "The workflow object ID returned by create_workflow": the create's new instance; "See create_page for format
    examples" of a page's content, the HTML of a template linked to `postcard_create`'s documentation: no source."""
    tools = [
        _tool("create_workflow", "Create a workflow.", [_param("name", "Name of the workflow")]),
        _tool(
            "publish_workflow",
            "Publish a workflow.",
            [_param("workflowObjectId", "The ID returned by create_workflow.")],
        ),
        _tool("create_page", "Create a page.", [_param("title", "Title of the page")]),
        _tool("update_page", "Update a page.", [_param("content", "New content. See create_page for format examples")]),
        _tool("postcard_create", "Create a postcard.", [_param("front", "Front of the card")]),
        _tool(
            "create_template",
            "Create a template.",
            [_param("html", "HTML details: - [Postcards](#operation/postcard_create) - `front` and `back`")],
        ),
    ]
    pairs = _fixed(tools)
    assert ("publish_workflow", "create_workflow", "workflowObjectId") in pairs
    assert not {(s, t) for s, t, _ in pairs} & {("update_page", "create_page"), ("create_template", "postcard_create")}


def test_a_possessive_names_the_owner_of_the_source_not_the_source():
    """ "extract it from the repository's git remote URL": no repository tool; "from the page snapshot" is one."""
    assert source_phrases("Try to extract it from the repository's git remote URL.") == []
    assert source_phrases("Element reference from the page snapshot, or a selector") == ["page snapshot"]
    # two words before the possessive: the second is not given back to leave `git` alone (nineteenth session review)
    assert source_phrases("Extract it from the git repository's remote URL.") == []
    tools = [
        _tool("setup_repository", "Set up a repository.", [_param("name", "Repository name")]),
        _tool(
            "list_files",
            "List files.",
            [_param("provider", "Git provider. Try to extract it from the repository's git remote URL.")],
        ),
    ]
    assert not {(s, t) for s, t, _ in _fixed(tools)} & {("list_files", "setup_repository")}
