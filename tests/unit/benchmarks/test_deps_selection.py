"""Selections of the shipped trees' probabilities (benchmarks/deps_selection.py)."""

from __future__ import annotations

import pytest

from benchmarks.deps_corpus import catalogs
from benchmarks.deps_selection import selection
from benchmarks.train_scorer import evaluate, prepare
from kg_tools.deps.scoring import default_scorer


def test_a_selection_changes_only_the_named_fields_of_the_shipped_file():
    base = default_scorer()
    assert selection("shipped", base) is base
    wider = selection("per_parameter=4,second=0", base)
    assert (wider.per_parameter, wider.second, wider.threshold, wider.trees) == (4, 0.0, base.threshold, base.trees)
    with pytest.raises(SystemExit):
        selection("trees=1", base)


def test_keeping_more_providers_never_predicts_fewer_edges():
    rows = [prepare(c) for c in catalogs("dev") if c.key == "mcp_slack"]
    base = default_scorer()
    shipped = evaluate(rows, "dev", base)["catalogs"][0]
    wider = evaluate(rows, "dev", selection("per_parameter=99,second=0", base))["catalogs"][0]
    assert wider["predicted"] >= shipped["predicted"] and wider["true_positives"] >= shipped["true_positives"]
