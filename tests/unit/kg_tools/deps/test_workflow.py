"""Tools a description names and what the sentence says about them (kg_tools/deps/workflow.py)."""

from __future__ import annotations

import random
import re

import pytest

from kg_tools.deps.workflow import (
    Mention,
    ToolNames,
    another_way,
    mentions,
    name_trie,
    runs_before,
    staged_for,
    stages,
    steps,
)
from kg_tools.tool_spec import MAX_NAME_LENGTH

NAMES = {
    n: n
    for n in (
        "download_paper",
        "search_papers",
        "jira_search",
        "jira_search_fields",
        "aggregate",
        "connect",
        "describe-index",
        "watch_topic",
        "data_modeling",
        "read_text_file",
        "add_comment",
        "get_issue",
        "create-index-for-model",
    )
}


def _cue(text: str) -> list[tuple[str, str | None]]:
    found = mentions(text, NAMES)
    return [(m.name, runs_before(m, [o for o in found if o.clause is m.clause and o is not m])) for m in found]


def test_a_name_is_matched_whole_and_a_plain_word_only_when_marked_as_a_tool():
    """`jira_search` is not inside `jira_search_fields`, `aggregate` not inside a URL's `db.aggregate---stages`; the
    one-word `connect` counts in "the connect tools" or backticks, not in "to connect to"."""
    text = "Use jira_search_fields to find ids. See https://x.org/db.aggregate---stages. Then connect to it."
    assert [m.name for m in mentions(text, NAMES)] == ["jira_search_fields"]
    assert [m.name for m in mentions("The id returned by one of the connect tools.", NAMES)] == ["connect"]
    assert [m.name for m in mentions("Call `aggregate` with a pipeline.", NAMES)] == ["aggregate"]
    linked = "Any [seed](/reference/search_papers). See [x](https://a.org/op/get_issue!c=200&path=x)."
    assert [m.name for m in mentions(linked, NAMES)] == ["search_papers"]


@pytest.mark.parametrize(
    ("text", "cue"),
    [
        ("Returns a clear error if the paper is missing — call download_paper first.", "first"),
        ("Use `describe-index` tool first to confirm the field name.", "first"),
        ("PREREQUISITE: Before calling this tool, you MUST first call `data_modeling` to make it.", "first"),
        ("- After completing data model design with data_modeling tool", "after"),
        ("Use watch_topic to register topics before calling this.", "before this"),
        ("Read a paper that was previously downloaded via download_paper.", "made by"),
        ("The temporary branch created by the data_modeling tool has been deleted.", "made by"),
        ("Send structured feedback on a previous `search_papers` result.", "made by"),
    ],
)
def test_a_step_before_the_described_tool_is_named_with_its_cue(text: str, cue: str):
    assert cue in [c for _, c in _cue(text)]


@pytest.mark.parametrize(
    "text",
    [
        "DEPRECATED: Use read_text_file instead.",
        "Similar to download_paper for local files.",
        "- Web search (use search_papers first)",
        "Only works with indexes (e.g. created with create-index-for-model).",
        "Create the link, then post a note with add_comment first.",
        "If you later need other fields, fetch them on demand with get_issue.",
        "Must match the topic used in watch_topic.",
        "Use search_papers to find papers.",
        "Use search_papers to find papers, then download_paper to add them before calling this.",
        "Related Tools:\n    After confirming health, use search_papers to discover papers.",
        "After import, call search_papers if you attached photos.",
    ],
)
def test_an_alternative_a_later_step_or_plain_advice_is_no_step_before(text: str):
    assert ("search_papers", "before this") not in _cue(text)
    assert all(c is None for name, c in _cue(text) if name != "download_paper")


def test_consecutive_steps_of_a_workflow_are_pairs_in_any_description():
    """ "Workflow: search_papers -> download_paper -> get_issue", "call `aggregate` then `connect`": each step after
    the one right before it; "use search_papers or get_issue" names no order."""
    text = "Workflow: search_papers -> download_paper -> get_issue. Or call `aggregate` then `connect`."
    assert [(a.name, b.name) for a, b in steps(mentions(text, NAMES))] == [
        ("search_papers", "download_paper"),
        ("download_paper", "get_issue"),
        ("aggregate", "connect"),
    ]
    assert steps(mentions("Use search_papers or get_issue.", NAMES)) == []


@pytest.mark.parametrize(
    "text",
    [
        "After search_papers or get_issue to block until the job finishes.",
        "After calling `search_papers`, `get_issue` or `aggregate`: poll.",
        "Use this for example after getting the outline via search_papers.",
    ],
)
def test_a_tool_named_inside_the_after_clause_runs_before(text: str):
    """The tools the after-clause itself names (a list of them too) run before; one named in the main clause after
    the clause's comma ("After confirming health, use X") runs after (the cases above)."""
    assert ("search_papers", "after") in _cue(text)


def test_an_example_keeps_its_clause():
    """ "(e.g. "search_papers", "get_issue")": the clause goes on after "e.g.", so the names are examples."""
    found = mentions('The name of the tool this is about (e.g. "search_papers", "get_issue").', NAMES)
    assert [m.name for m in found] == ["search_papers", "get_issue"]
    assert all(another_way(m) for m in found)


def test_a_capitalised_example_keeps_its_clause_too():
    """ "(E.g. Search_papers)": a capital after "E.g." opens no new sentence (nineteenth session review)."""
    found = mentions("The tool this is about (E.g. `search_papers`).", NAMES)
    assert [m.name for m in found] == ["search_papers"]
    assert all(another_way(m) for m in found)


def test_a_value_given_to_another_tool_too_is_another_way():
    (m,) = mentions("Must match the topic string used in watch_topic exactly.", NAMES)
    assert another_way(m)


@pytest.mark.parametrize("text", ["A filter dict (same syntax as search_papers).", "Same rules as `search_papers`."])
def test_the_same_thing_as_another_tool_is_another_way(text: str):
    """ "same syntax as X", "same rules as X": X takes a value of that kind too, it does not give this one."""
    (m,) = mentions(text, NAMES)
    assert another_way(m)


def test_a_tool_used_after_the_value_is_another_way():
    """ "Call before using manage_agent_triggers": that tool takes the value later, it does not give it."""
    (m,) = mentions('"list_triggers" — fetch trigger types. Call before using search_papers action:"add".', NAMES)
    assert another_way(m)


def test_a_tool_that_puts_changes_into_the_staging_area_stages_and_what_is_staged_is_for_a_commit():
    """ "Adds file contents to the staging area" and "Stage files" stage; "Unstages all staged changes" and a tool that
    only shows staged changes do not. The actions that take what is staged: `commit`, and what a description names."""
    assert stages("Adds file contents to the staging area")
    assert stages("Stage files for the next commit.")
    assert not stages("Unstages all staged changes")
    assert not stages("Shows changes that are staged for commit")
    assert staged_for(["Shows changes that are staged for the next release"]) == {"commit", "release"}


def test_the_name_tree_reads_the_longest_name_first_as_their_alternation_longest_first_did():
    """name_trie: one alternative per next character, longer continuations before the name that ends there."""
    assert name_trie(["get_issue", "get_issues", "get_user", "list"]) == "(?:get_(?:issue(?:s|)|user)|list)"
    text = "Call get_issues, then get_issue-x or get_issue. Not get_user_x; list."
    assert [
        m.group(1)
        for m in ToolNames({n: n for n in ["get_issue", "get_issues", "get_user", "list"]}).pattern.finditer(text)
    ] == [
        "get_issues",
        "get_issue",
        "list",
    ]


# made-up names' characters: word and separator characters, regex metacharacters, letters whose case folds oddly
# (`İ`, `K` the Kelvin sign), a combining accent
NAME_CHARS = "ab_-./ Aé()*+?[]|\\^$İK\u0301"


def test_the_name_tree_finds_what_the_alternation_of_the_names_found():
    """Seeded made-up names (prefixes of one another among them) and texts: the same matches."""
    rng = random.Random(26)
    for _ in range(500):
        chars = NAME_CHARS[: rng.choice([3, 6, len(NAME_CHARS)])]
        names = {"".join(rng.choice(chars) for _ in range(rng.randint(1, 5))) for _ in range(rng.randint(1, 10))}
        names |= {n[: rng.randint(1, len(n))] for n in list(names) if rng.random() < 0.5}
        longest_first = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        old = re.compile(r"(?<![\w.\-])(" + longest_first + r")(?![\w\-])")
        new = ToolNames({n: n for n in names}).pattern
        for _ in range(10):
            pieces = [rng.choice([*names, *chars, " ", "`"]) for _ in range(rng.randint(0, 12))]
            text = "".join(pieces)
            assert [m.span(1) for m in new.finditer(text)] == [m.span(1) for m in old.finditer(text)], (names, text)


def test_an_empty_name_names_nothing():
    """`github__`'s tool part is empty: the alternation matched it between any two characters (after a backtick, a
    mention of `github__`)."""
    assert mentions("Call `` then `x`", {"": "github__", "x": "github__x"}) == [
        Mention("github__x", "Call `` then `x`", 14, 15)
    ]
    assert not ToolNames({"": "github__"}).pattern.search("` tool `")
    assert name_trie([]) == name_trie([""]) == "(?!)"


def test_names_as_long_as_a_tool_name_may_be_nest_within_the_recursion_limit():
    """Every prefix of a name of MAX_NAME_LENGTH characters: one nested group per character, compiled."""
    names = {"a" * k: "x" for k in range(1, MAX_NAME_LENGTH + 1)}
    assert ToolNames(names).pattern.fullmatch("a" * MAX_NAME_LENGTH)
