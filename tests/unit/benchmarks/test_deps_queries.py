"""The hand-written multi-step requests of the dev retrieval specs (benchmarks/data/deps/queries): every golden name
is a tool of its spec as the loader names it, the main tool is one of them, ids are unique and the splits are
balanced. Unit test: no Neo4j."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from benchmarks import DATA
from benchmarks.eval.catalog_eval import dataset, read_catalog

DEPS = DATA / "deps"
KEYS = sorted(p.stem for p in (DEPS / "queries").glob("*.json"))


def test_the_six_dev_retrieval_specs_have_queries():
    assert KEYS == ["argo_workflows", "asana", "box", "listmonk", "qdrant", "semaphore"]


@pytest.mark.parametrize("key", KEYS)
def test_golden_names_are_tools_of_the_spec(key):
    spec, queries = DEPS / "openapi" / f"{key}.json", DEPS / "queries" / f"{key}.json"
    tools = {t["name"] for t in read_catalog(spec, key).tools}
    rows = json.loads(queries.read_text())
    for row in rows:
        assert set(row["golden_function_names"]) <= tools, row["id"]
        assert len(set(row["golden_function_names"])) == len(row["golden_function_names"]) >= 2, row["id"]
        assert row["main_golden_function_name"] in row["golden_function_names"], row["id"]
        assert row["kind"] == "multi-step", row["id"]
    assert len({r["id"] for r in rows}) == len({r["user_query"].lower() for r in rows}) == len(rows) == 20
    assert Counter(r["split"] for r in rows) == {"dev": 10, "test": 10}
    for split in ("dev", "test"):
        assert len(dataset(spec, queries, key, split=split).instances) == 10  # the eval's own gold check
