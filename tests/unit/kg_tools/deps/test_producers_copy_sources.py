"""A create's identifier named by the role of what it copies (`sourceApplicationId`, `duplicateFromItemId`) names an
existing instance of the resource the create makes (kg_tools/deps/producers.py `_copy_source`; eighteenth session,
"paths, copies and headers"). Made-up tool lists."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from tests.support.made_up_ops import wanted


def _tool(name: str, description: str, props: dict[str, dict]) -> ToolInfo:
    params = [{"name": n, "required": False, **p} for n, p in props.items()]
    schema = {"type": "object", "properties": props}
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params, "input_schema": schema})


def _s(description: str = "") -> dict:
    return {"type": "string", "description": description}


def _tools() -> list[ToolInfo]:
    return [
        _tool("search_gaskets", "Search gaskets; returns each gasket's id and name", {"query": _s("Text")}),
        _tool(
            "create_gasket",
            "Create a gasket",
            {"gasketId": _s("Id of the new gasket"), "sourceGasketId": _s(), "duplicateFromGasketId": _s()},
        ),
        _tool("create_pulley", "Create a pulley", {"source": _s("Where it is made")}),
    ]


def test_a_creates_copy_source_names_an_existing_instance():
    """`create_gasket(sourceGasketId)` and `(duplicateFromGasketId)` want a gasket that exists already."""
    found = wanted(_tools())
    assert found[("create_gasket", "sourceGasketId")][:2] == (["gasket"], "id")
    assert found[("create_gasket", "duplicateFromGasketId")][:2] == (["gasket"], "id")


def test_a_creates_own_id_still_names_the_new_instance():
    """The create's own `gasketId` names the new gasket: no want."""
    assert ("create_gasket", "gasketId") not in wanted(_tools())


def test_a_bare_source_is_no_copy_source():
    """A role word alone (`source`) names no copied instance."""
    assert ("create_pulley", "source") not in wanted(_tools())


def test_a_one_word_copy_verb_parameter_is_read_safely():
    """`clone` alone (one word, read as a resource of its own) is no copy source and does not break the reading."""
    tools = _tools() + [
        _tool("list_clones", "List all clones", {}),
        _tool("create_clone", "Create a clone", {"clone": _s("The clone to make")}),
    ]
    assert ("create_clone", "clone") not in wanted(tools)
