"""Review and fuzzing of the nineteenth session's rules (s20rev): odd but valid tool lists (product prefixes, parameters that are only a `oneOf` of odd members, exact ties, thousands of tools) through inference:
nothing raises, no tool gathers every edge. Small made-up specs, no names of real ones."""

from __future__ import annotations

import time

import pytest

from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.offline import Examples, ToolInfo
from tests.support.made_up_ops import listing


def _edges(raws: list[dict]) -> list[tuple[str, str]]:
    tools = [ToolInfo.from_raw(r) for r in raws]
    return [(e.source, e.target) for e in infer_catalog(tools, None, Examples([])).edges]


def test_odd_product_prefixes_raise_nothing():
    raws = [
        {"name": f"{prefix}_{verb}_{r}", "description": f"{prefix} {r}.", "parameters": params}
        for prefix in ("acme", "list", "ñu", "x", "1", "用户")
        for r in ("widget", "gadget")
        for verb, params in (("list", []), ("get", [{"name": f"{r}_id", "type": "string", "required": True}]))
    ]
    raws += [
        {
            "name": "list_widgets",
            "description": "",
            "parameters": [],
            "output_schema": listing("widgets", "W", "string"),
        }
    ]
    assert isinstance(_edges(raws), list)


ODD_MEMBERS = [
    [],
    [None],
    [{"type": "null"}],
    [1, "x"],
    [{"type": "object"}, {"type": "object"}],
    [{"oneOf": [{"type": "object", "properties": {"a_id": {"type": "string"}}}]}, {"type": "object"}],
    [{"type": "array", "items": {"type": "object", "properties": {"a_id": {"type": "string"}}}}] * 2,
    [{"$ref": "#/$defs/missing"}, {"type": "object", "properties": {"a_id": {"type": "string"}}}],
]


@pytest.mark.parametrize("members", ODD_MEMBERS)
def test_a_parameter_that_is_only_a_one_of_of_odd_members_raises_nothing(members):
    data = {"name": "data", "type": "object", "required": True, "in": "body"}
    raws = [
        {"name": "list_as", "description": "", "parameters": [], "output_schema": listing("data", "A", "string")},
        {
            "name": "create_thing",
            "description": "",
            "parameters": [data],
            "input_schema": {"type": "object", "properties": {"data": {"oneOf": members}}},
            "http": {"method": "POST", "path": "/things"},
        },
    ]
    assert isinstance(_edges(raws), list)


def test_exact_ties_go_to_the_first_names_whatever_the_order():
    widgets = listing("widgets", "Widget", "string")
    raws = [
        {"name": f"list_widgets_{i}", "description": "", "parameters": [], "output_schema": widgets} for i in range(30)
    ]
    raws += [
        {
            "name": "get_widget",
            "description": "",
            "parameters": [{"name": "widget_id", "type": "string", "required": True}],
        }
    ]
    first, again = _edges(raws), _edges(list(reversed(raws)))
    assert sorted(first) == sorted(again)  # the listing order does not choose
    assert 0 < len(first) <= 2 and {t for _, t in first} <= {"list_widgets_0", "list_widgets_1"}  # the name last


def test_thousands_of_tools_in_seconds_without_a_hub():
    """3,000 made-up tools (375 resources, each listed, read, made, changed, searched, echoed in a nested body and
    listed under another): inference in well under a minute, no producer feeding more than a few consumers."""
    raws = []
    names = [f"res{i}" for i in range(375)]
    for i, r in enumerate(names):
        other = names[(i * 7 + 3) % len(names)]
        ident = [{"name": f"{r}_id", "type": "string", "required": True}]
        nested = {
            "type": "object",
            "properties": {
                "items": {
                    "type": "array",
                    "items": {"type": "object", "properties": {f"{other}_id": {"type": "string"}}},
                }
            },
        }
        raws += [
            {
                "name": f"list_{r}s",
                "description": f"List {r}s.",
                "parameters": [],
                "output_schema": listing(f"{r}s", r, "string"),
            },
            {"name": f"get_{r}", "description": f"Get a {r} by id from list_{r}s.", "parameters": ident},
            {
                "name": f"create_{r}",
                "description": f"Create a {r}. E.g. in a {other}.",
                "parameters": [{"name": f"{other}_id", "type": "string", "required": True}],
            },
            {"name": f"update_{r}", "description": "", "parameters": ident},
            {"name": f"delete_{r}", "description": "", "parameters": ident},
            {
                "name": f"search_{r}s",
                "description": "",
                "parameters": [{"name": "query", "type": "string", "required": True}],
                "output_schema": listing("results", r, "string"),
            },
            {
                "name": f"acme_{r}_echo",
                "description": "",
                "parameters": [{"name": "body", "type": "object", "required": True}],
                "input_schema": {"type": "object", "properties": {"body": nested}},
            },
            {
                "name": f"get_{r}_{other}s",
                "description": f"The {other}s of a {r}.",
                "parameters": ident,
                "output_schema": listing("data", other, "string"),
            },
        ]
    start = time.process_time()
    tools = [ToolInfo.from_raw(r) for r in raws]
    edges = infer_catalog(tools, None, Examples([])).edges
    assert len(tools) == 3000 and edges
    assert time.process_time() - start < 60
    into: dict[str, int] = {}
    for e in edges:
        into[e.target] = into.get(e.target, 0) + 1
    assert max(into.values()) <= 12
