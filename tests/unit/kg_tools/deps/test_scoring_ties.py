"""Equally probable candidates are ranked by what the catalog says of them, not by their names' alphabet
(kg_tools/deps/scoring.py `_tie_key`; nineteenth session, "ties between candidates"). Made-up tools."""

from __future__ import annotations

from kg_tools.deps.producers import candidate_groups
from kg_tools.deps.scoring import Scorer, _qualifiers, ranked, select
from tests.support.made_up_ops import described_tool as _tool


def _p(name: str, description: str) -> dict:
    return {"name": name, "type": "string", "description": description, "required": True}


SHELF = _p("shelf_id", "ID of the shelf")
TOOLS = [
    _tool("list_archived_shelves", "Lists the archived shelves.", []),
    _tool("list_shelves", "Lists all shelves in the store.", []),
    _tool("list_aisle_shelves", "Lists the shelves of an aisle.", [_p("aisle_id", "ID of the aisle")]),
    _tool("shelf_open", "Opens a shelf.", [SHELF]),
]
SCORER = Scorer((), 0.0, 0.1, threshold=0.2, second=0.5, per_parameter=1, hub_share=1.0, hub_min=8)


def _group(p: dict[str, float]) -> list:
    _, groups = candidate_groups(TOOLS)
    [group] = [g for g in groups if g and g[0].consumer.name == "shelf_open"]
    group = [c for c in group if c.producer.name in p]
    for c in group:
        c.probability = p[c.producer.name]
    return group


def test_of_equally_probable_lists_the_plain_one_goes_first_not_the_first_name():
    group = _group({"list_archived_shelves": 0.6, "list_shelves": 0.6, "list_aisle_shelves": 0.6})
    # fewer required parameters first, then fewer qualifiers in the name; the alphabet would put `list_aisle_shelves` first
    assert [c.producer.name for c in ranked(group, SCORER)] == [
        "list_shelves",
        "list_archived_shelves",
        "list_aisle_shelves",
    ]
    assert [c.producer.name for c in select([group], SCORER)[0]] == ["list_shelves"]


def test_the_probability_still_decides_and_a_tie_left_falls_back_to_the_name():
    group = _group({"list_archived_shelves": 0.61, "list_shelves": 0.6})
    assert [c.producer.name for c in ranked(group, SCORER)][0] == "list_archived_shelves"
    twins = _group({"list_archived_shelves": 0.6, "list_aisle_shelves": 0.6})
    for c in twins:
        c.producer.wants = []  # same required count and words: the name decides
    assert [c.producer.name for c in ranked(twins, SCORER)] == ["list_aisle_shelves", "list_archived_shelves"]


def test_a_readers_verbs_and_the_wanted_resource_are_no_qualifiers():
    by = {c.producer.name: c for c in _group({"list_shelves": 0.6, "list_archived_shelves": 0.6})}
    assert _qualifiers(by["list_shelves"]) == 0
    assert _qualifiers(by["list_archived_shelves"]) == 1
