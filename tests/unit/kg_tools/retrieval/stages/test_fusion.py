"""Fusion of sub-request lists and the offline decomposition: pure functions on hand-made input."""

from dataclasses import dataclass

import pytest

from kg_tools.retrieval.stages.fusion import fuse, round_robin, rrf, toolscope
from kg_tools.retrieval.stages.transform import offline_decomposition


@dataclass
class Hit:
    name: str
    score: float


def lists():
    return [
        [Hit("a", 0.9), Hit("b", 0.8), Hit("c", 0.5)],
        [Hit("d", 0.7), Hit("b", 0.65), Hit("e", 0.6)],
    ]


def test_toolscope_puts_each_top1_first_then_min_max_normalised():
    fused = toolscope(lists())
    # top-1s in sub-request order, then the rest by normalised score:
    # list 1: a 1.0, b 0.75, c 0.0; list 2: d 1.0, b 0.5, e 0.0 -> b keeps 0.75; c and e tie at 0 (name order)
    assert [h.name for h in fused] == ["a", "d", "b", "c", "e"]
    assert fused[2].score == pytest.approx(0.75)


def test_toolscope_same_top1_twice_is_listed_once():
    fused = toolscope([[Hit("a", 0.9), Hit("b", 0.1)], [Hit("a", 0.5), Hit("c", 0.4)]])
    assert [h.name for h in fused] == ["a", "b", "c"]  # b and c both normalise to 0 -> name order


def test_rrf_sums_reciprocal_ranks():
    fused = rrf(lists(), k=60)
    assert fused[0].name == "b"  # rank 2 in both lists beats rank 1 in one
    assert fused[0].score == pytest.approx(2 / 62)
    assert [h.name for h in fused[1:3]] == ["a", "d"]


def test_max_fusion_and_unknown_method():
    assert [h.name for h in fuse("max", lists())] == ["a", "b", "d", "e", "c"]
    with pytest.raises(ValueError, match="unknown fusion"):
        fuse("nope", lists())


def test_round_robin_takes_each_lists_best_in_turn_then_the_rest():
    three = [*lists(), [Hit("f", 0.3), Hit("a", 0.2), Hit("g", 0.1)]]
    # rank 1 of each list, rank 2 of each (b once; a already in), then the rest as toolscope orders it
    assert [h.name for h in round_robin(three, depth=2)] == ["a", "d", "f", "b", "c", "e", "g"]
    assert [h.name for h in fuse("round-robin", three)][:3] == ["a", "d", "f"]


@pytest.mark.parametrize(
    "text,parts",
    [
        # commas before an action verb split steps (issue 19 item 3); commas inside a step do not
        (
            "find the open issues labelled bug in acme/api, summarise them, and save the summary to bugs.md",
            ["find the open issues labelled bug in acme/api", "summarise them", "save the summary to bugs.md"],
        ),
        (
            "find coffee shops near our office at 500 Howard St, San Francisco",
            ["find coffee shops near our office at 500 Howard St, San Francisco"],
        ),
        ("drive from Reno, Dallas, Columbus to Austin", ["drive from Reno, Dallas, Columbus to Austin"]),
        ("Turn on wifi and then check the battery level", ["Turn on wifi", "check the battery level"]),
        ("Find flights between Paris and London", ["Find flights between Paris and London"]),
        (
            "Set an alarm for 7am. Also read me today's weather forecast",
            ["Set an alarm for 7am", "read me today's weather forecast"],
        ),
        (
            "check my unread email and reply to the latest message",
            ["check my unread email", "reply to the latest message"],
        ),
    ],
)
def test_offline_decomposition(text, parts):
    assert offline_decomposition(text) == parts


@dataclass
class CatalogHit:
    name: str
    score: float
    catalog: str | None = None


@pytest.mark.parametrize("method", ["toolscope", "rrf", "max", "round-robin"])
def test_fusion_keeps_same_named_tools_of_two_catalogs_apart(method):
    """A tool is (catalog, name): the same name in two catalogs is two tools; in two lists, one tool."""
    one = [CatalogHit("login", 0.9, "pizza"), CatalogHit("login", 0.8, "books")]
    two = [CatalogHit("login", 0.7, "books"), CatalogHit("logout", 0.6, "pizza")]
    fused = fuse(method, [one, two])
    assert sorted((h.catalog, h.name) for h in fused) == [("books", "login"), ("pizza", "login"), ("pizza", "logout")]
