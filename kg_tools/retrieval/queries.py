"""Retrieval queries composed from cypher/ fragments: pure builders that return `(cypher, params)`
together, testable without a database.

search fragment (yields hit, score) + seeds fragment (-> node, score) + expand or return fragment.
The expansion depth is the one literal in the Cypher (variable-length bounds cannot be
parameters): it is validated here, before any text is built or cached.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from kg_tools.closure import CLOSURE_DEPTH, CLOSURE_SIZE
from kg_tools.cypher import query
from kg_tools.retrieval.request import MAX_DEPTH
from kg_tools.retrieval.stages.fusion import RRF_K
from kg_tools.schema import FULLTEXT_FIELDS, FULLTEXT_INDEX, VECTOR_INDEX
from kg_tools.tool_spec import DEPENDENCY_TYPES

SEARCH_FRAGMENTS = {
    "vector": "search_vector",
    "fulltext": "search_fulltext",
    "hybrid": "search_hybrid",
    "rrf": "search_hybrid",
    "hybrid-boost": "search_boost",
}
LEG_PARAMS = ("vector_index", "candidates", "embedding", "fulltext_index", "lucene_query")  # search_legs's
TWO_LEGS = ("search_hybrid", "search_boost")  # fragments with {vector_leg} and {fulltext_leg}
MIN_CANDIDATES = 50  # HNSW is approximate: ask for at least this many, then cut to k
# A request for one catalog (cypher/search_*_catalog.cypher): a catalog of at most EXACT_SCAN_MAX
# tools is scanned exactly; a larger one asks the index for WIDEN x candidates nearest tools, then (too
# few of its tools in them) for WIDEN x candidates x (graph / catalog), and is scanned when that pool
# holds too few of its tools. Measured in docs/retrieval.md.
EXACT_SCAN_MAX = 1000
WIDEN = 2.0
# mode 'hybrid-boost' (the default): vector score + LEXICAL_BOOST x normalised BM25, in cosine units
# (the fragment's $boost is half of it: Neo4j's vector score is (1 + cos) / 2). Chosen on the dev sets
# (docs/retrieval.md: 0.05 of 0.03-0.2).
LEXICAL_BOOST = 0.05

_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')
_LUCENE_OPERATORS = re.compile(r"\b(AND|OR|NOT|TO)\b")
# Lucene's limit on the clauses of one query (neo4j: `maxClauseCount is set to 1024`); every token
# becomes one clause per indexed property, so a query may carry this many tokens.
LUCENE_MAX_CLAUSES = 1024
LUCENE_MAX_TOKENS = LUCENE_MAX_CLAUSES // FULLTEXT_FIELDS - 16
# What the standard analyzer makes a token, counted generously: each CJK character, each other word run.
_CJK = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+")


def lucene_query(text: str) -> str:
    """Escape Lucene special characters and neutralise boolean operators; terms are OR'ed.

    A query with more tokens than Lucene accepts keeps its distinct terms (case-folded, first
    occurrence wins) up to LUCENE_MAX_TOKENS tokens; shorter queries pass unchanged."""
    terms = text.split()
    if sum(len(_TOKEN.findall(t)) for t in terms) > LUCENE_MAX_TOKENS:
        text = " ".join(_fold_terms(terms))
    escaped = _LUCENE_SPECIAL.sub(r"\\\1", text)
    escaped = _LUCENE_OPERATORS.sub(lambda m: m.group(1).lower(), escaped)
    return escaped.strip() or '""'


def _fold_terms(terms: Iterable[str]) -> list[str]:
    kept, seen, budget = [], set(), LUCENE_MAX_TOKENS
    for term in terms:
        tokens = _TOKEN.findall(term)
        if term.casefold() in seen or not tokens:
            continue
        if len(tokens) > budget:  # the term that overflows: keep its first tokens
            kept += tokens[:budget]
            break
        seen.add(term.casefold())
        kept.append(term)
        budget -= len(tokens)
    return kept


def check_depth(depth: int) -> int:
    """The expansion depth: an int (not a bool, not a string) in 0..MAX_DEPTH."""
    if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be an integer in 0..{MAX_DEPTH}, got {depth!r}")
    return depth


def _check_mode(mode: str) -> str:
    if mode not in SEARCH_FRAGMENTS:
        raise ValueError(f"search mode must be one of {', '.join(SEARCH_FRAGMENTS)}, got {mode!r}")
    return mode


# -- parameters ---------------------------------------------------------------------------------


class Vector(list):
    """The query embedding as a parameter: a list (sent as LIST<FLOAT>) with a short repr. The neo4j
    driver formats every RUN for its debug log whether or not debug logging is on, and the repr of
    384 floats costs ~0.16 ms per request."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<vector of {len(self)} floats>"


def search_params(
    mode: str,
    *,
    k: int,
    text: str | None = None,
    embedding: list[float] | None = None,
    catalog: str | None = None,
    catalogs: Iterable[str] | None = None,
    alpha: float = 0.8,
) -> dict:
    """Parameters of every search fragment: the vector leg needs `embedding`, the fulltext leg `text`.
    `catalog` and/or `catalogs`: search only those catalogs, filtered inside the query (`$catalogs`)."""
    _check_mode(mode)
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    params: dict[str, Any] = {
        "k": k,
        "candidates": max(MIN_CANDIDATES, k),
        "catalogs": catalog_list(catalog, catalogs),
        "exact_scan_max": EXACT_SCAN_MAX,
        "widen": WIDEN,
        "vector_index": VECTOR_INDEX,
        "fulltext_index": FULLTEXT_INDEX,
        "alpha": alpha,
        "fusion": "rrf" if mode == "rrf" else "alpha",
        "rrf_k": RRF_K,
        "boost": LEXICAL_BOOST / 2,
    }
    if mode != "fulltext":
        if embedding is None:
            raise ValueError(f"search mode {mode!r} needs the query embedding")
        params["embedding"] = embedding if isinstance(embedding, Vector) else Vector(embedding)
    if mode != "vector":
        if text is None:
            raise ValueError(f"search mode {mode!r} needs the query text")
        params["lucene_query"] = lucene_query(text)
    return params


def expand_params(
    *,
    edge_types: list[str] | None = None,
    prefer_direct: bool = False,
    drop_parameter_patterns: list[str] | None = None,
    d_limit: int,
) -> dict:
    """Parameters of the expansion fragment (cypher/expand.cypher)."""
    unknown = [t for t in edge_types or [] if t not in DEPENDENCY_TYPES]
    if unknown:
        raise ValueError(f"unknown edge type(s) {unknown}; expected any of {', '.join(DEPENDENCY_TYPES)}")
    return {
        "edge_types": list(edge_types) if edge_types else DEPENDENCY_TYPES,
        "prefer_direct": prefer_direct,
        "drop_parameter_patterns": list(drop_parameter_patterns or []),
        "d_limit": d_limit,
    }


# -- builders: (cypher, params) -------------------------------------------------------------------


def catalog_list(catalog: str | None, catalogs: Iterable[str] | None) -> list[str] | None:
    """The catalogs a search is restricted to (sorted, unique), or None for all of them."""
    if catalog is None and catalogs is None:
        return None
    return sorted({*([catalog] if catalog is not None else []), *(catalogs or [])})


def scoped(search: dict) -> bool:
    """The search parameters name catalogs (the catalog fragments apply)."""
    return search.get("catalogs") is not None


def search(mode: str, search: dict) -> tuple[str, dict]:
    """Search only (e.g. rerank candidates); `search` from search_params()."""
    return search_query(_check_mode(mode), scoped(search)), search


def uses_closure(depth: int, expansion: dict) -> bool:
    """The default expansion is read from the precomputed closures (kg_tools.closure): depth 5, all
    edge types, no preference, nothing dropped, d_limit within the stored closure."""
    return (
        depth == CLOSURE_DEPTH
        and sorted(expansion["edge_types"]) == sorted(DEPENDENCY_TYPES)
        and not expansion["prefer_direct"]
        and not expansion["drop_parameter_patterns"]
        and expansion["d_limit"] <= CLOSURE_SIZE
    )


def expand(depth: int, seeds: list[dict], expansion: dict, closure: bool = True) -> tuple[str, dict]:
    """Expansion of seeds chosen by the caller ([{name, score}], best first); `expansion` from
    expand_params(). closure=False forces the live expansion (tests compare the two). Rows that
    carry a `reach` need kg_tools.retrieval.expansion.complete()."""
    depth = check_depth(depth)
    return _expand_query(depth, closure and uses_closure(depth, expansion)), {"seeds": seeds, **expansion}


def search_seeds(mode: str, search: dict) -> tuple[str, dict]:
    """Search -> canonical seeds, names and scores only: one row, `seeds` in rank order."""
    return _search_seeds_query(_check_mode(mode), scoped(search)), search


def search_legs(search: dict) -> tuple[str, dict]:
    """The default search's two legs as the indexes return them (hybrid-boost, unscoped): one row of
    elementIds and scores per leg, merged by hit_index.boost_seeds. Only the legs' parameters are sent."""
    return _search_legs_query(), {name: search[name] for name in LEG_PARAMS}


def hit_seeds(limit: int) -> tuple[str, dict]:
    """Every tool's seeds by elementId (hit_index.py), of at most `limit` tools: one row of two lists."""
    return query("hit_seeds"), {"limit": _check_limit(limit)}


def seed_cache_candidates(limit: int) -> tuple[str, dict]:
    """Names of the tools that can be a seed (canonical ones), at most `limit`."""
    return query("seed_cache_candidates"), {"limit": _check_limit(limit)}


def _check_limit(limit: int) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"limit must be a non-negative integer, got {limit!r}")
    return limit


def search_expand(mode: str, depth: int, search: dict, expansion: dict, closure: bool = True) -> tuple[str, dict]:
    """One round trip: search, canonical seeds, expansion (rows with a `reach`: expansion.complete())."""
    depth = check_depth(depth)
    return (
        _search_expand_query(_check_mode(mode), depth, closure and uses_closure(depth, expansion), scoped(search)),
        {**search, **expansion},
    )


# -- the Cypher text (cached per validated mode/depth) --------------------------------------------


@lru_cache(maxsize=16)
def _expand_fragment(depth: int, closure: bool = False, enumerated: bool = False) -> str:
    if depth == 0:
        return query("expand_none")
    if enumerated:  # the reference semantics (tests only): exponential in the graph's density
        paths = query("expand_paths_enumerated").replace("{depth}", str(depth))
    else:  # the reachable subgraph; kg_tools/retrieval/expansion.py orders it
        paths = query("expand_paths").replace("{reach_depth}", str(depth - 1))
    return query("expand_closure" if closure else "expand").replace("{paths}", paths)


def expand_enumerated(depth: int, seeds: list[dict], expansion: dict) -> tuple[str, dict]:
    """The expansion as Cypher that enumerates every path (rows with `deps`). Tests compare the live
    expansion against it; never used at run time (exponential in the graph's density)."""
    depth = check_depth(depth)
    return "\n".join([query("seeds_given"), _expand_fragment(depth, False, True)]), {"seeds": seeds, **expansion}


@lru_cache(maxsize=16)
def search_fragment(mode: str, scoped: bool = False) -> str:
    """The search fragment of a mode (yields `hit, score`); `scoped`: restricted exactly to $catalogs."""
    suffix = "_catalog" if scoped else ""
    fragment = SEARCH_FRAGMENTS[_check_mode(mode)]
    if fragment not in TWO_LEGS:
        return query(fragment + suffix)
    return (
        query(fragment)
        .replace("{vector_leg}", query("search_vector" + suffix))
        .replace("{fulltext_leg}", query("search_fulltext" + suffix))
    )


@lru_cache(maxsize=128)
def _search_expand_query(mode: str, depth: int, closure: bool = False, scoped: bool = False) -> str:
    return "\n".join([search_fragment(mode, scoped), query("seeds_canonical"), _expand_fragment(depth, closure)])


@lru_cache(maxsize=16)
def _search_seeds_query(mode: str, scoped: bool = False) -> str:
    return "\n".join([search_fragment(mode, scoped), query("seeds_canonical"), query("return_seed_names")])


@lru_cache(maxsize=1)
def _search_legs_query() -> str:
    return (
        query("search_legs")
        .replace("{vector_leg}", query("search_vector"))
        .replace("{fulltext_leg}", query("search_fulltext"))
    )


@lru_cache(maxsize=16)
def search_query(mode: str, scoped: bool = False) -> str:
    """Search only: the Cypher text (stages that bring their own parameters use this); `scoped`:
    the request names catalogs (RetrievalRequest.scope)."""
    return "\n".join([search_fragment(_check_mode(mode), scoped), query("seeds_canonical"), query("return_seeds")])


@lru_cache(maxsize=16)
def _expand_query(depth: int, closure: bool = False) -> str:
    return "\n".join([query("seeds_given"), _expand_fragment(depth, closure)])
