"""hit_index.py: the default search's seeds merged in Python (the Cypher equivalence is checked against Neo4j in
tests/integration/test_hit_index.py) and the per-version index of each tool's seeds."""

from __future__ import annotations

import pytest

from kg_tools.retrieval import queries
from kg_tools.retrieval.hit_index import HitIndex, boost_seeds

BOOST = 0.025


def legs(vector: dict[str, float], text: dict[str, float]) -> dict:
    return {
        "vector_ids": list(vector),
        "vector_scores": list(vector.values()),
        "text_ids": list(text),
        "text_scores": list(text.values()),
    }


SEEDS = {h: ((h.upper(), "c"),) for h in "abcdef"}


def test_the_boost_is_the_normalised_bm25_and_a_text_hit_alone_gets_the_lowest_vector_score():
    seeds = boost_seeds(legs({"a": 0.9, "b": 0.8, "c": 0.7}, {"b": 4.0, "d": 2.0, "e": 1.0}), SEEDS, BOOST, 10)
    assert seeds == [
        {"name": "A", "catalog": "c", "score": 0.9},
        {"name": "B", "catalog": "c", "score": 0.8 + BOOST * 1.0},
        {"name": "D", "catalog": "c", "score": 0.7 + BOOST * (1.0 / 3.0)},
        {"name": "C", "catalog": "c", "score": 0.7},
        {"name": "E", "catalog": "c", "score": 0.7 + BOOST * 0.0},
    ]


def test_equal_scores_go_by_name_and_k_cuts():
    seeds = boost_seeds(legs({"c": 0.5, "b": 0.5, "a": 0.6}, {}), SEEDS, BOOST, 2)
    assert [s["name"] for s in seeds] == ["A", "B"]


def test_one_text_hit_or_equal_bm25_scores_count_as_the_full_boost_and_no_vector_hit_as_zero():
    assert boost_seeds(legs({}, {"a": 3.0}), SEEDS, BOOST, 5) == [{"name": "A", "catalog": "c", "score": BOOST}]
    both = boost_seeds(legs({"a": 0.4}, {"b": 2.0, "c": 2.0}), SEEDS, BOOST, 5)
    assert [(s["name"], s["score"]) for s in both] == [("B", 0.4 + BOOST), ("C", 0.4 + BOOST), ("A", 0.4)]


def test_merged_hits_give_their_canonical_seeds_their_best_score_and_staged_hits_give_none():
    seeds_of = {"a": (("A", "c"),), "b": (("A", "c"),), "c": (("A", "c"), ("C2", "d")), "d": ()}
    seeds = boost_seeds(legs({"a": 0.6, "b": 0.8, "c": 0.7, "d": 0.99}, {}), seeds_of, BOOST, 5)
    assert seeds == [{"name": "A", "catalog": "c", "score": 0.8}, {"name": "C2", "catalog": "d", "score": 0.7}]


def test_a_hit_the_index_does_not_know_gives_none():
    assert boost_seeds(legs({"a": 0.6, "x": 0.5}, {}), SEEDS, BOOST, 5) is None


class Reads:
    def __init__(self, rows: list[dict], versions: list[str]):
        self.rows, self.versions, self.limits = rows, versions, []

    def __call__(self, limit: int):
        self.limits.append(limit)
        rows = self.rows[:limit]
        return [{"ids": [r["id"] for r in rows], "seeds": [r["seeds"] for r in rows]}], self.versions.pop(0)


ROWS = [{"id": "a", "seeds": [["A", "c"]]}, {"id": "b", "seeds": []}]


def test_the_index_is_read_once_per_version_and_kept_only_for_the_version_the_search_saw():
    index = HitIndex(limit=10)
    read = Reads(ROWS, ["v1", "v2", "v2"])
    assert index.seeds_of("v1", read) == {"a": (("A", "c"),), "b": ()}
    assert index.seeds_of("v1", read) is not None and index.reads == 1 and read.limits == [11]
    assert index.knows("v1") and not index.knows("v2")
    assert index.seeds_of("v3", read) is None  # a commit between the search and the read
    assert not index.knows("v3") and index.knows("v1")
    assert index.seeds_of("v2", read) is not None and index.knows("v2") and index.reads == 3


def test_a_graph_of_more_tools_than_the_limit_is_not_kept():
    index = HitIndex(limit=1)
    assert index.seeds_of("v1", Reads(ROWS, ["v1"])) is None
    assert index.too_large() and index.knows("v1")
    assert index.seeds_of("v1", Reads([], [])) is None  # not read again for the same version


@pytest.mark.parametrize("limit", [-1, True, "3"])
def test_hit_seeds_needs_a_non_negative_integer_limit(limit):
    with pytest.raises(ValueError, match="limit"):
        queries.hit_seeds(limit)
