"""A large catalog in no server order: many tools without a declared source (sources.MANY_TOOLS), listed sorted by
name or shuffled (sources.keeps_server_order, or neighbours that share their rare words no more often than tools
far apart), so their families are only their spellings and servers of one
spelling are one source. There a value flows between two tools only when their descriptions (the tool's and its
parameters') share a rare word, one at most RARE_SHARE of the catalog's tools write: a product's name, a domain's
noun. Two servers that spell names alike share the common words (`project`, `id`), not their products' names."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from kg_tools.deps import sources

RARE_SHARE = 0.02  # of the catalog's tools (dev union shuffled, 6,708 and 2,415 tools: 0.006 to 0.03 tried)
NEIGHBOURS = 2  # times as often as far apart (dev union in server order: 20 and more; shuffled: about 1)
_WORD = re.compile(r"[a-z][a-z0-9]+")


def text_words(tool: object) -> set[str]:
    """The lower-case words of a tool's description and of its parameters' descriptions."""
    texts = [getattr(tool, "description", "") or ""]
    texts += [str(p.get("description") or "") for p in getattr(tool, "parameters", None) or [] if isinstance(p, dict)]
    return set(_WORD.findall(" ".join(texts).lower()))


def rare_words(
    names: Sequence[str], declared: dict[str, str], operations: set[str], tools: dict[str, object]
) -> dict[str, frozenset[str]]:
    """name -> its rare words, for the tools (`names` in listing order) without a `declared` source that are no HTTP
    `operations` (as sources.catalog_sources), when they are MANY_TOOLS or more in no server order; {} otherwise
    (the guard is off)."""
    unnamed = [n for n in names if not declared.get(n) and n not in operations]
    if len(unnamed) < sources.MANY_TOOLS:
        return {}
    own = {n: text_words(tools[n]) for n in unnamed}
    count = Counter(w for ws in own.values() for w in ws)
    most = RARE_SHARE * len(unnamed)
    rare = {n: frozenset(w for w in ws if count[w] <= most) for n, ws in own.items()}
    if sources.keeps_server_order(unnamed) and neighbours_share([rare[n] for n in unnamed]):
        return {}
    return rare


def neighbours_share(rare: Sequence[frozenset[str]]) -> bool:
    """Whether tools next to each other in the listing share a rare word at least NEIGHBOURS times as often as tools
    half the listing apart: one server's tools listed together. A shuffled listing where one spelling holds most
    names passes keeps_server_order (its runs of another shape are few) but not this (dev union, 2,415 tools of 62
    servers: 0.57 of neighbours in server order, 0.034 shuffled, against 0.03 half the listing apart)."""
    n = len(rare)
    near = sum(not a.isdisjoint(b) for a, b in zip(rare, rare[1:])) / (n - 1)
    far = sum(not rare[i].isdisjoint(rare[(i + n // 2) % n]) for i in range(n)) / n
    return near >= NEIGHBOURS * far  # no rare word at all: nothing to tell (and nothing the guard could keep)


def may_flow(a: str, b: str, rare: dict[str, frozenset[str]]) -> bool:
    """Whether a value may flow between tools `a` and `b` by their rare words (a tool outside `rare`: yes)."""
    if a not in rare or b not in rare:
        return True
    return not rare[a].isdisjoint(rare[b])
