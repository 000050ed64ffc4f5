"""The many-server retrieval row's requests (benchmarks/data/deps/union): well formed, gold names in the union of
the dev MCP servers under both namings, halves as the recorded draw makes them."""

from __future__ import annotations

import json
from collections import Counter

from benchmarks.data.deps.union.make import build
from benchmarks.deps_union import servers, union


def test_requests_file_makes_the_committed_queries():
    assert build.from_text() == json.loads(build.QUERIES.read_text(encoding="utf-8"))


def test_queries_are_well_formed_and_split_per_kind():
    rows = json.loads(build.QUERIES.read_text(encoding="utf-8"))
    assert len({r["id"] for r in rows}) == len(rows) == len({r["user_query"] for r in rows})
    for r in rows:
        assert r["kind"] in {"single", "multi", "multi-step"}
        assert r["main_golden_function_name"] in r["golden_function_names"]
        assert len(r["golden_function_names"]) == (1 if r["kind"] == "single" else len(set(r["golden_function_names"])))
    halves = Counter((r["kind"], r["split"]) for r in rows)
    for kind in ("single", "multi", "multi-step"):
        assert 0 <= halves[(kind, "dev")] - halves[(kind, "test")] <= 1


def test_gold_names_exist_under_both_namings_and_no_fresh_server():
    assert all(c.role == "dev" for c in servers().values())
    for names in ("prefixed", "plain"):
        raws, _, _ = union(names)
        tools = {r["name"] for r in raws}
        for q in build.renamed_queries(names):
            assert set(q["golden_function_names"]) <= tools
