"""Seed rows of the default retrieval remembered between requests, valid while the graph is unchanged.

The default request expands the top SEED_POOL (15) search candidates in one query, and the offline
rescoring then keeps k (3) of them: most of what that query reads -- each candidate's spec, kind,
merged members and its precomputed dependency closure with every dependency's spec and the edge
that reached it -- is the same from one request to the next. This cache keeps that part of each
row, per tool and `d_limit`, so a request whose candidates are all known sends only the search
(`search_seeds`: names and scores; ~40 % of the full query's Neo4j CPU on ToolLinkOS) and builds
the same rows from memory. Candidates it does not know are expanded by a second, smaller query
(`seeds_given` + the closure expansion). Rows built either way are equal to the rows of the single
full query; tests/integration/test_seed_cache.py checks this.

**Validity.** Entries are tied to the graph version, the read's bookmark (`Graph.read_plain_versioned`):
the database's last committed transaction, so ANY write (a load, PUT, DELETE, merge, dependency
run, or an edit in Neo4j Browser) gives reads a new version, and a request that sees a new version
starts from an empty cache. Rows are stored only when the query that read them is known to have
run with no commit in between: the version observed before it started equals the version after it.

**Which query.** While most recent candidates were in the cache (LIGHT_HIT_RATE of the last
HISTORY), the light search is sent; otherwise (cold start, after a write, or a catalog much larger
than the cache, e.g. 100,000 tools) the single full query, whose rows fill the cache.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque

from kg_tools.retrieval.request import tool_key

HISTORY = 100  # candidate look-ups the hit rate is taken over
LIGHT_HIT_RATE = 0.9  # at or above it, requests send the light search first
ROW_FIELDS = ("name", "catalog", "func_type", "spec", "members", "deps")
Key = tuple[tuple[str, str], int]  # ((tool name, catalog): request.tool_key, d_limit)


class SeedCache:
    """((tool name, catalog), d_limit) -> the tool's expansion row without rank and score, for one graph version.
    Thread-safe; least recently used entries go first beyond `size`."""

    def __init__(self, size: int):
        self.size = size
        self._lock = threading.Lock()
        self._version: str | None = None
        self._rows: OrderedDict[Key, dict] = OrderedDict()
        self._history: deque[bool] = deque(maxlen=HISTORY)
        self.last_seen: str | None = None  # the version after the most recent query that ended
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._rows)

    def prefer_light(self) -> bool:
        history = self._history
        return len(history) >= HISTORY // 2 and sum(history) >= LIGHT_HIT_RATE * len(history)

    def observe(self, version: str) -> None:
        """A query ended having seen `version`: entries of another version are dropped."""
        with self._lock:
            self.last_seen = version
            if version != self._version:
                self._rows.clear()
                self._version = version

    def lookup(self, version: str, tools: list[tuple[str, str]], d_limit: int) -> list[dict | None]:
        """The cached rows of `tools` (request.tool_key; None where unknown); counted in the hit rate."""
        found: list[dict | None] = []
        with self._lock:
            for tool in tools:
                row = self._rows.get((tool, d_limit)) if version == self._version else None
                if row is not None:
                    self._rows.move_to_end((tool, d_limit))
                found.append(row)
                self._history.append(row is not None)
            hits = sum(row is not None for row in found)
            self.hits += hits
            self.misses += len(found) - hits
        return found

    def store(self, since: str | None, version: str, rows: list[dict], d_limit: int) -> None:
        """Keep rows read by a query that started after `since` was seen and ended at `version`:
        only when they are equal (no commit in between) and still the current version."""
        if self.size <= 0 or since is None or since != version:
            return
        with self._lock:
            if version != self._version:
                return
            for row in rows:
                key = (tool_key(row["name"], row.get("catalog")), d_limit)
                self._rows[key] = {field: row.get(field) for field in ROW_FIELDS}
                self._rows.move_to_end(key)
            while len(self._rows) > self.size:
                self._rows.popitem(last=False)
