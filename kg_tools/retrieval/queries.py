"""Retrieval queries composed from cypher/ fragments (pure builders: testable without a database).

search fragment (yields hit, score) + seeds fragment (-> node, score) + expand or return fragment.
"""
from __future__ import annotations

import re
from functools import lru_cache

from kg_tools.cypher import query
from kg_tools.retrieval.request import MAX_DEPTH

SEARCH_FRAGMENTS = {"vector": "search_vector", "fulltext": "search_fulltext", "hybrid": "search_hybrid",
                    "rrf": "search_hybrid"}

_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_LUCENE_OPERATORS = re.compile(r"\b(AND|OR|NOT|TO)\b")


def lucene_query(text: str) -> str:
    """Escape Lucene special characters and neutralise boolean operators; terms are OR'ed."""
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", text)
    escaped = _LUCENE_OPERATORS.sub(lambda m: m.group(1).lower(), escaped)
    return escaped.strip() or '""'


def _depth_literal(depth: int) -> int:
    if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be an integer in 1..{MAX_DEPTH}, got {depth!r}")
    return depth


@lru_cache(maxsize=64)
def expand_fragment(depth: int) -> str:
    if depth == 0:
        return query("expand_none")
    return query("expand").replace("{depth}", str(_depth_literal(depth)))


@lru_cache(maxsize=64)
def search_expand_query(mode: str, depth: int) -> str:
    """One round trip: search, seeds, expansion."""
    return "\n".join([query(SEARCH_FRAGMENTS[mode]), query("seeds_canonical"), expand_fragment(depth)])


@lru_cache(maxsize=8)
def search_query(mode: str) -> str:
    """Search only (rerank candidates)."""
    return "\n".join([query(SEARCH_FRAGMENTS[mode]), query("seeds_canonical"), query("return_seeds")])


@lru_cache(maxsize=64)
def expand_query(depth: int) -> str:
    """Expansion of seeds chosen by the caller (e.g. after a rerank)."""
    return "\n".join([query("seeds_given"), expand_fragment(depth)])
