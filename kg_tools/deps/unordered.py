"""A large catalog in no server order: many tools without a declared source (sources.MANY_TOOLS), listed sorted by
name or shuffled (sources.keeps_server_order), so their families are only their spellings and servers of one
spelling are one source. There a value flows between two tools only when their descriptions (the tool's and its
parameters') share a rare word, one at most RARE_SHARE of the catalog's tools write: a product's name, a domain's
noun. Two servers that spell names alike share the common words (`project`, `id`), not their products' names."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from kg_tools.deps import sources

RARE_SHARE = 0.012  # of the catalog's tools (dev union shuffled: 0.003 / 0.006 / 0.012 / 0.018 tried)
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
    if len(unnamed) < sources.MANY_TOOLS or sources.keeps_server_order(unnamed):
        return {}
    own = {n: text_words(tools[n]) for n in unnamed}
    count = Counter(w for ws in own.values() for w in ws)
    most = RARE_SHARE * len(unnamed)
    return {n: frozenset(w for w in ws if count[w] <= most) for n, ws in own.items()}


def may_flow(a: str, b: str, rare: dict[str, frozenset[str]]) -> bool:
    """Whether a value may flow between tools `a` and `b` by their rare words (a tool outside `rare`: yes)."""
    if a not in rare or b not in rare:
        return True
    return not rare[a].isdisjoint(rare[b])
