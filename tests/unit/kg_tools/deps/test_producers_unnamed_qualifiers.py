"""A want whose resource is a qualifier inside a compound name that no tool is named after (kg_tools/deps/producers.py
`_unnamed_qualifier`; eighteenth session, "resources named by a qualifier"). Made-up tools, no real names."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import described_tool as _tool
from tests.support.made_up_ops import required_string as _p


def _wanted(tools: list[ToolInfo]) -> set[tuple[str, str]]:
    _, groups = candidate_groups(tools)
    return {(c.consumer.name, c.want.parameter) for g in groups for c in g}


def test_a_qualifier_no_tool_is_named_after_gets_no_provider():
    """`crateFormalName` read as the resource `formal`: no tool is about formals, so no candidate."""
    tools = [
        _tool("shelf_search", "Searches formal records of every crate.", []),
        _tool("shelf_open", "Opens one crate.", [_p("crateFormalName", "Formal name of the crate")]),
    ]
    assert all(param != "crateFormalName" for _, param in _wanted(tools))


def test_the_noun_before_the_qualifier_is_read_when_a_tool_is_named_after_it():
    """`crateFormalName` beside `shelf_list_crates`: the want is read as a crate, which the crate list provides."""
    tools = [
        _tool("shelf_search", "Searches formal records of every crate.", []),
        _tool("shelf_list_crates", "Lists all crates with their names.", []),
        _tool("shelf_open", "Opens one crate.", [_p("crateFormalName", "Formal name of the crate")]),
    ]
    _, groups = candidate_groups(tools)
    found = {(c.want.parameter, c.want.resources[0], c.producer.name) for g in groups for c in g}
    assert ("crateFormalName", "crate", "shelf_list_crates") in found
