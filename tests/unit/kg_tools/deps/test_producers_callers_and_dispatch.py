"""Precision on first contact (seventeenth session, "current-user getters, dispatch tools and noun-verb names"): a
reader of the caller with no id in its output is no second provider of another person's id; an argument that
chooses an operation is no type filter; `archive_get` reads an archive. Small made-up tool lists, no names of real
ones."""

from __future__ import annotations

from kg_tools.deps import producers
from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups, prepare, tool_kind, without_second_callers
from kg_tools.deps.resources import name_verb_and_object
from tests.support.made_up_ops import listing

USERS = listing("users", "User")


def _tools(caller_output: dict | None = None, caller_name: str = "get_current_user") -> list[ToolInfo]:
    caller = {
        "name": caller_name,
        "description": "Return the user that owns the API key configured on this server.",
        "parameters": [],
    }
    if caller_output:
        caller["output_schema"] = caller_output
    raw = [
        {"name": "list_users", "description": "List the garden's users.", "parameters": [], "output_schema": USERS},
        caller,
        {
            "name": "add_watcher",
            "description": "Add a watcher to a plot.",
            "parameters": [{"name": "user_id", "type": "integer", "required": True, "description": "The user"}],
        },
    ]
    return [ToolInfo.from_raw(r) for r in raw]


def _kept(tools: list[ToolInfo], probabilities: dict[str, float]) -> set[str]:
    """The producers of `add_watcher.user_id` left, each candidate given the probability named."""
    _, groups = candidate_groups(tools)
    group = next(g for g in groups if g and g[0].want.parameter == "user_id")
    accepted = []
    for c in group:
        if c.producer.name in probabilities:
            c.probability = probabilities[c.producer.name]
            accepted.append(c)
    assert {c.producer.name for c in accepted} == set(probabilities)
    return {c.producer.name for c in without_second_callers(accepted)}


def test_a_reader_of_the_caller_without_an_id_is_no_second_provider_of_a_person():
    """`get_current_user` (described only) beside `list_users`: the watcher added is another person's id."""
    assert _kept(_tools(), {"list_users": 0.9, "get_current_user": 0.3}) == {"list_users"}
    me = _tools(caller_name="whoami")
    assert _kept(me, {"list_users": 0.9, "whoami": 0.4}) == {"list_users"}


def test_a_reader_of_the_caller_stays_when_its_output_holds_the_id_or_when_it_is_the_best():
    """An output schema with the caller's `id` gives that id (kept as second); the best provider is never dropped."""
    user = {"type": "object", "title": "User", "properties": {"id": {"type": "integer"}}}
    assert _kept(_tools(user), {"list_users": 0.9, "get_current_user": 0.8}) == {"list_users", "get_current_user"}
    assert _kept(_tools(), {"list_users": 0.3, "get_current_user": 0.9}) == {"list_users", "get_current_user"}


def test_an_argument_that_chooses_an_operation_is_no_type_filter():
    """`query_garden(action: plots | sheds)`, its action described as an "operation type": what it does, not the
    types of thing a search returns; a `kind` enum of the same values still is."""

    def search(prop: str, description: str) -> list[str]:
        schema = {
            "type": "object",
            "properties": {prop: {"type": "string", "enum": ["plots", "sheds"], "description": description}},
        }
        raw = {"name": "query_garden", "description": "Search the garden.", "input_schema": schema}
        raw["parameters"] = [{"name": prop, "type": "string", "enum": ["plots", "sheds"], "description": description}]
        tool = prepare([ToolInfo.from_raw(raw)])["query_garden"]
        return producers._filter_values(tool)

    assert search("action", "The operation type") == []
    assert search("kind", "The type of thing") == ["plots", "sheds"]


def test_a_verb_that_is_also_a_noun_before_a_verb_that_names_nothing_is_the_object():
    """`archive_get` reads an archive (not `get` archived); `create_update` makes an update, `archive_list` archives
    a list: their first word opens names, or their second is a thing."""
    assert name_verb_and_object("archive_get") == ("get", ["archive"])
    assert name_verb_and_object("check_cancel") == ("cancel", ["check"])
    assert name_verb_and_object("upload_retrieve") == ("retrieve", ["upload"])
    assert name_verb_and_object("create_update") == ("create", ["update"])
    assert name_verb_and_object("archive_list") == ("archive", ["list"])
    raw = {"name": "archive_get", "description": "Archives of the garden.", "parameters": []}
    assert tool_kind(prepare([ToolInfo.from_raw(raw)])["archive_get"]) == "get"
