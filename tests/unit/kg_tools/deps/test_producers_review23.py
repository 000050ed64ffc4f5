"""Review and fuzzing of the twenty-second session (s23rev): two names that differ only in case, separators or
marks are one operation written twice, neither the other's producer. Made-up names only."""

from __future__ import annotations

import pytest

from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.offline import Examples, ToolInfo
from kg_tools.deps.producers import one_operation


def _edges(raws: list[dict]) -> list[tuple[str, str]]:
    tools = [ToolInfo.from_raw(r) for r in raws]
    return [(e.source, e.target) for e in infer_catalog(tools, None, Examples([])).edges]


@pytest.mark.parametrize(
    "names", [("user_list", "userList"), ("café_list", "cafe_list"), ("Widget-List", "widget_list")]
)
def test_one_operation_written_twice_is_no_two_cycle(names):
    # each was read as a reader of the other's noun: user_list <-> userList
    raws = [{"name": n, "description": "", "parameters": [{"name": "id", "type": "string"}]} for n in names]
    assert _edges(raws) == []


def test_names_with_other_words_still_provide():
    raws = [{"name": "list_users", "description": "", "parameters": []}]
    raws += [{"name": n, "description": "", "parameters": [{"name": "user_id", "type": "string", "required": True}]}
             for n in ("getUser", "get_user")]  # fmt: skip
    assert sorted(_edges(raws)) == [("getUser", "list_users"), ("get_user", "list_users")]
    assert one_operation("getUser", "get-user") and not one_operation("get_user", "get_users")
    assert not one_operation("获取用户", "создать")  # no Latin word in either: nothing said


def test_tools_named_without_latin_letters_still_take_values():
    raws = [
        {"name": "列出项目", "description": "List projects.", "parameters": [], "output_schema": {"type": "array", "items": {
            "type": "object", "properties": {"project_id": {"type": "string"}}}}},
        {"name": "获取项目", "description": "", "parameters": [{"name": "project_id", "type": "string", "required": True}]},
    ]  # fmt: skip
    assert _edges(raws) == [("获取项目", "列出项目")]
