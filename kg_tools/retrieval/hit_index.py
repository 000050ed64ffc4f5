"""The default search's seeds merged in Python from the two index legs, with each hit's canonical seeds
kept per graph version.

On the light path (seed_cache.py) the default search (hybrid-boost, no catalog scope) asks Neo4j only for
what its two indexes return (cypher/search_legs.cypher: each leg's hits as elementIds and scores) and
`boost_seeds` does here what cypher/search_boost.cypher + seeds_canonical.cypher do in Neo4j: the
lexical boost, each hit's canonical seeds (itself, or the tools it is MERGED_INTO; none while its
catalog version is staged), the best score per seed, the best k by score then name. The arithmetic is
Neo4j's, in the same order (IEEE doubles both), so the seeds, their scores and their order are the same
(every distinct ToolLinkOS query compared; tests/integration/test_hit_index.py). It saves the merge of
~100 rows in Neo4j's slotted runtime and the MERGED_INTO look-up of each hit (~0.3-0.5 ms of the
search's ~2 ms in Neo4j) for ~0.03 ms of Python.

Each tool's seeds are read with one query (cypher/hit_seeds.cypher) the first time a search sees a
graph version, and kept while searches see it. **Validity** is the seed cache's: the version is the
read's bookmark, so any write gives the next search a new version; what is read is used only when the
read saw the version the search saw. A graph of more tools than `limit` is not read (the search
then sends the one query that does it all in Neo4j).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

Seed = tuple[str, str | None]  # (name, catalog) of a canonical tool
SeedsOf = dict[str, tuple[Seed, ...]]  # a tool's elementId -> the seeds a hit on it gives
Read = Callable[[int], tuple[list[dict], str]]  # the hit_seeds query for at most n tools: its row, graph version


class HitIndex:
    """The seeds of every tool of the most recent graph version a search saw. Thread-safe; two requests
    that miss at once both read (the same rows)."""

    def __init__(self, limit: int):
        self.limit = limit
        self._lock = threading.Lock()
        self._version: str | None = None
        self._seeds: SeedsOf | None = None
        self.reads = 0  # hit_seeds queries sent (tests)

    def too_large(self) -> bool:
        """The most recent version read held more than `limit` tools."""
        with self._lock:
            return self._version is not None and self._seeds is None

    def knows(self, version: str) -> bool:
        """`version` is the one read most recently (its seeds, or that it was too large)."""
        with self._lock:
            return version == self._version

    def seeds_of(self, version: str, read: Read) -> SeedsOf | None:
        """Each tool's seeds at `version` (the graph version the search saw): kept ones, else read; None
        when the graph holds more than `limit` tools or the read saw another version."""
        with self._lock:
            if version == self._version:
                return self._seeds
        rows, seen = read(self.limit + 1)
        ids, lists = rows[0]["ids"], rows[0]["seeds"]
        seeds = None if len(ids) > self.limit else {i: tuple((n, c) for n, c in s) for i, s in zip(ids, lists)}
        with self._lock:
            self.reads += 1
            if seen != version:
                return None
            self._version, self._seeds = version, seeds
        return seeds


def boost_seeds(legs: dict, seeds_of: SeedsOf, boost: float, k: int) -> list[dict] | None:
    """cypher/search_boost.cypher + seeds_canonical.cypher (unscoped) over search_legs.cypher's row: the
    best k seeds [{name, catalog, score}]; None when a hit is not in `seeds_of`. Each index returns a
    node at most once, so a hit has one score per leg."""
    vector_scores, text_scores = legs["vector_scores"], legs["text_scores"]
    floor = min([1.0e9, *vector_scores])  # as the fragment's reduce()s: their start values included
    top, bottom = max([0.0, *text_scores]), min([1.0e9, *text_scores])
    missing = 0.0 if floor > 1.0 else floor  # the vector score of a fulltext hit alone
    scores = dict(zip(legs["vector_ids"], vector_scores))
    for hit, text in zip(legs["text_ids"], text_scores):
        normalised = (text - bottom) / (top - bottom) if top > bottom else 1.0
        scores[hit] = scores.get(hit, missing) + boost * normalised
    best: dict[Seed, float] = {}
    for hit, score in scores.items():
        seeds = seeds_of.get(hit)
        if seeds is None:
            return None
        for seed in seeds:
            if seed not in best or score > best[seed]:
                best[seed] = score
    ranked = sorted(best.items(), key=_by_score_then_name)[:k]
    return [{"name": name, "catalog": catalog, "score": score} for (name, catalog), score in ranked]


def _by_score_then_name(item: tuple[Seed, float]) -> tuple[float, str]:
    return -item[1], item[0][0]
