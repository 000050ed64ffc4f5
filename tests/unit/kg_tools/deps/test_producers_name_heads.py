"""A reader named after the wanted resource only as a qualifier of its head noun is no candidate by its name
(kg_tools/deps/resources.py `name_heads`, producers.py `_named_for_another`; twenty-second session). Made-up tools,
no real names."""

from __future__ import annotations

import pytest

from kg_tools.deps.producers import Want, candidate_groups, prepare
from kg_tools.deps.resources import name_heads
from kg_tools.deps.scoring import FEATURES, Candidate, default_scorer, set_probabilities
from tests.support.made_up_ops import described_tool as _tool
from tests.support.made_up_ops import required_string as _p


@pytest.mark.parametrize(
    "name", ["search_kiln_types", "kiln-types-search", "SearchKilnTypes", "kilnTypesSearch", "studio_search_kiln_types"]
)
def test_snake_kebab_and_camel_names_read_one_head_whichever_side_the_verb_is(name: str):
    assert name_heads(name) == {"type"}


def test_versions_identifiers_and_cut_words_are_skipped():
    assert name_heads("getKilnScriptsV1") == {"script"}
    assert name_heads("list_kilns_v3") == {"kiln"}
    assert name_heads("get_mugs_for_kiln") == {"mug"}
    assert name_heads("get_kilns_id_firings") == {"firing"}
    assert name_heads("getKilnById") == {"kiln"}


def test_a_name_joined_by_and_has_a_head_per_part():
    assert name_heads("list_kilns_and_mugs") == {"kiln", "mug"}


def test_a_trailing_word_that_is_no_known_verb_is_read_as_the_head():
    """`kiln_logs_grep`: `grep` is no verb of the lists, so it reads as the head; the kiln is not it either way."""
    assert name_heads("kiln_logs_list") == {"log"}
    assert "kiln" not in name_heads("kiln_logs_grep")


def _studio(*readers: str) -> dict[str, bool]:
    """The candidates for `fire_kiln(kiln_id)` beside `list_kilns` and `readers`: name -> named for another."""
    tools = [
        _tool("list_kilns", "Lists the studio's kilns", []),
        *(_tool(name, "Reads what the studio keeps", []) for name in readers),
        _tool("fire_kiln", "Fires one kiln", [_p("kiln_id", "The kiln to fire")]),
    ]
    _, groups = candidate_groups(tools)
    return {c.producer.name: c.other_head for g in groups for c in g if c.want.parameter == "kiln_id"}


def test_a_reader_whose_head_is_another_word_is_named_for_another():
    candidates = _studio("search_kiln_types", "kiln_firings_search", "get_kiln_firing_history")
    assert candidates == {
        "list_kilns": False,
        "search_kiln_types": True,
        "kiln_firings_search": True,
        "get_kiln_firing_history": True,
    }


def test_a_reader_of_the_resource_its_names_or_a_version_is_not():
    candidates = _studio("list_kiln_names", "getKilnsV2", "list_kilns_and_mugs")
    assert not any(candidates.values()) and len(candidates) == 4


def _candidate(other_head: bool) -> Candidate:
    tool = prepare([_tool("list_kilns", "", [])])["list_kilns"]
    want = Want("kiln_id", ["kiln"], "id", True)
    return Candidate(tool, want, tool, None, other_head=other_head, features=[0.0] * len(FEATURES))


def test_a_candidate_named_for_another_provides_nothing_but_keeps_its_place():
    """Its probability is 0, so it is never accepted; it stays in its group, ahead of nested offers in a tool list
    without HTTP operations (scoring._direct_first), as before."""
    plain, other = _candidate(False), _candidate(True)
    set_probabilities([[plain, other]], default_scorer())
    assert other.probability == 0.0 and plain.probability > 0.0
