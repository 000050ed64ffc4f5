"""Review and fuzzing of the twenty-first session (s22rev): tool names in Latin letters with marks read as their
letters, names that differ only in case or separator, a tool with a thousand parameters. Made-up names only."""

from __future__ import annotations

import pytest

from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.offline import Examples, ToolInfo


def _edges(raws: list[dict]) -> list[tuple[str, str]]:
    tools = [ToolInfo.from_raw(r) for r in raws]
    return [(e.source, e.target) for e in infer_catalog(tools, None, Examples([])).edges]


def _list_and_get(noun: str) -> list[dict]:
    return [
        {"name": f"list_{noun}s", "description": "", "parameters": []},
        {
            "name": f"get_{noun}",
            "description": "",
            "parameters": [{"name": f"{noun}_id", "type": "string", "required": False}],
        },
    ]


@pytest.mark.parametrize("noun", ["pièce", "café"])
def test_a_name_with_accents_is_read_as_its_letters(noun):
    # cut at the accents, `pièces` was `pi ces` beside `pi ce`: no edge
    assert _edges(_list_and_get(noun)) == [(f"get_{noun}", f"list_{noun}s")]


def test_names_that_differ_in_case_or_separator_are_tools_of_their_own():
    raws = [{"name": n, "description": "", "parameters": []} for n in ("getUser", "get_user", "get-user", "GetUser")]
    raws += [{"name": "delete_user", "description": "", "parameters": [{"name": "user_id", "type": "string"}]}]
    edges = _edges(raws)
    assert all(source == "delete_user" for source, _ in edges)  # none of the four takes anything


def test_a_thousand_parameters_on_one_tool_raise_nothing():
    params = [{"name": f"p{i}_id", "type": "string", "required": True} for i in range(1000)]
    raws = [{"name": "search_everything", "description": "", "parameters": params}]
    raws += [{"name": f"list_p{i}s", "description": "", "parameters": []} for i in range(0, 1000, 100)]
    edges = _edges(raws)
    assert {t for _, t in edges} <= {r["name"] for r in raws[1:]} and len(edges) <= 10
