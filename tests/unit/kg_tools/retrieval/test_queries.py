"""The query builders without a database: (cypher, params) together, the depth literal validated
before any text is built, Lucene text escaped and bounded."""

from __future__ import annotations

import re

import pytest

from kg_tools.retrieval import queries
from kg_tools.retrieval.queries import LUCENE_MAX_CLAUSES, LUCENE_MAX_TOKENS, lucene_query
from kg_tools.schema import FULLTEXT_FIELDS
from kg_tools.tool_spec import DEPENDENCY_TYPES

EXPANSION = queries.expand_params(d_limit=10)
SEEDS = [{"name": "a", "score": 0.9}]


def test_expand_returns_cypher_and_params_together():
    cypher, params = queries.expand(3, SEEDS, EXPANSION)
    # the live expansion reads the subgraph within depth - 1 hops (the reference enumerates paths of depth)
    assert "*0..2]" in cypher and "$seeds" in cypher and "{reach_depth}" not in cypher
    reference, _ = queries.expand_enumerated(3, SEEDS, EXPANSION)
    assert "*1..3]" in reference and "{depth}" not in reference
    assert params == {
        "seeds": SEEDS,
        "edge_types": DEPENDENCY_TYPES,
        "prefer_direct": False,
        "drop_parameter_patterns": [],
        "d_limit": 10,
    }
    # every $parameter the text uses is supplied
    assert set(re.findall(r"\$(\w+)", cypher)) <= set(params)


def test_depth_zero_expands_nothing():
    cypher, params = queries.expand(0, SEEDS, EXPANSION)
    assert "[] AS deps" in cypher and "DEPENDS_ON" not in cypher
    assert params["seeds"] == SEEDS


@pytest.mark.parametrize("depth", [6, -1, True, False, "3", 2.0, None])
def test_a_bad_depth_is_refused_before_any_cypher_is_built(depth):
    queries.expand(1, SEEDS, EXPANSION)  # a cached depth 1 must not answer for True
    with pytest.raises(ValueError, match="depth must be an integer in 0..5"):
        queries.expand(depth, SEEDS, EXPANSION)
    with pytest.raises(ValueError, match="depth must be an integer in 0..5"):
        queries.search_expand("vector", depth, queries.search_params("vector", k=3, embedding=[0.1]), EXPANSION)


@pytest.mark.parametrize("mode", ["vector", "fulltext", "hybrid", "rrf", "hybrid-boost"])
def test_search_expand_supplies_every_parameter_its_text_uses(mode):
    search = queries.search_params(mode, k=3, text="weather in Paris", embedding=[0.1, 0.2], catalog="c")
    cypher, params = queries.search_expand(mode, 2, search, EXPANSION)
    assert set(re.findall(r"\$(\w+)", cypher)) <= set(params)
    assert params["k"] == 3 and params["candidates"] == queries.MIN_CANDIDATES and params["catalogs"] == ["c"]
    assert ("embedding" in params) == (mode != "fulltext")
    assert ("lucene_query" in params) == (mode != "vector")


def test_search_builder_checks_mode_and_inputs():
    with pytest.raises(ValueError, match="search mode"):
        queries.search_params("semantic", k=3, text="x")
    with pytest.raises(ValueError, match="needs the query embedding"):
        queries.search_params("hybrid", k=3, text="x")
    with pytest.raises(ValueError, match="unknown edge type"):
        queries.expand_params(edge_types=["KNOWS"], d_limit=3)
    cypher, params = queries.search("fulltext", queries.search_params("fulltext", k=5, text="x"))
    assert "return" in cypher.lower() and params["k"] == 5


@pytest.mark.parametrize(
    "raw, escaped",
    [
        ("C++ (beta)", r"C\+\+ \(beta\)"),
        ('say "hi" ~2 *wild? a:b', r"say \"hi\" \~2 \*wild\? a\:b"),
        (r"path/to\file [x] {y} ^z !n -m", r"path\/to\\file \[x\] \{y\} \^z \!n \-m"),
        ("cats && dogs || birds", r"cats \&& dogs \|| birds"),
        ("this AND that OR NOT TO", "this and that or not to"),
        ("ANDROID ORDER", "ANDROID ORDER"),
        ("   ", '""'),
    ],
)
def test_lucene_query_escapes_special_characters(raw, escaped):
    assert lucene_query(raw) == escaped


def test_a_long_query_is_folded_below_lucenes_clause_limit():
    """257 distinct words x 4 indexed properties was `TooManyClauses: maxClauseCount is set to 1024`."""
    words = [f"word{i}" for i in range(400)]
    folded = lucene_query(" ".join(words + words)).split()
    assert folded == words[:LUCENE_MAX_TOKENS]  # distinct, in order, the first ones kept
    assert len(folded) * FULLTEXT_FIELDS <= LUCENE_MAX_CLAUSES
    cjk = lucene_query("東京" * 2000).split()  # each ideograph is a token of the standard analyzer
    assert len(cjk) == LUCENE_MAX_TOKENS and set(cjk) == {"東", "京"}
    short = "book a flight and book a hotel"
    assert lucene_query(short) == short  # ordinary queries pass unchanged (repeats kept)


def test_seed_cache_candidates_takes_a_bounded_limit():
    cypher, params = queries.seed_cache_candidates(4096)
    assert params == {"limit": 4096} and set(re.findall(r"\$(\w+)", cypher)) == {"limit"}
    assert "MERGED_INTO" in cypher  # only canonical tools can be seeds
    for bad in (True, -1, 2.0, "10"):
        with pytest.raises(ValueError, match="limit"):
            queries.seed_cache_candidates(bad)
