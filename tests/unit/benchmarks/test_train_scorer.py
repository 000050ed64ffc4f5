"""The scorer's training script (benchmarks/train_scorer.py): its options and its rows."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.deps_corpus import catalogs
from benchmarks.train_scorer import (
    CREATES,
    catalog_weights,
    evaluate,
    lists_creates,
    main,
    matrix,
    pooled_means,
    prepare,
)
from kg_tools.deps.scoring import FEATURES, Scorer


def test_one_scorer_file_per_run():
    with pytest.raises(SystemExit) as exc:
        main(["--write", "--out", "x.json"])
    assert exc.value.code == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["--drop", "hub", "no_such_feature"],
        ["--draws", "0"],
        ["--depth", "0"],
        ["--hold-out", "nowhere"],
        ["--hold-out", "box", "--write"],
        ["--rate", "0"],
        ["--subsample", "1.5"],
        ["--max-features", "-1"],
        ["--target-precision", "2"],
        ["--report-keys", "neon", "nowhere"],
    ],
)
def test_bad_option_values_are_usage_errors(argv):
    """Dropped features are features; draws and depth at least one; held-out and reported catalogs dev catalogs;
    shares in (0, 1]."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2


def test_a_dropped_feature_is_a_constant_column_of_the_rows():
    [neon] = [c for c in catalogs("dev") if c.key == "neon"]
    rows = prepare(neon, drop=("hub", "log_candidates"))
    at = [FEATURES.index(name) for name in ("hub", "log_candidates", "no_http_log_candidates")]
    assert all(c.features[i] == 0.0 for g in rows.groups for c in g for i in at)
    assert any(c.features[FEATURES.index("hub")] > 0 for g in prepare(neon).groups for c in g)


def test_rows_have_nested_wants_as_inference_does_by_default():
    [neon] = [c for c in catalogs("dev") if c.key == "neon"]  # its arguments live in one `params` object
    nested = prepare(neon)
    assert any(g and "." in g[0].want.parameter for g in nested.groups)
    assert not any(g and "." in g[0].want.parameter for g in prepare(neon, nested_wants=False).groups)


@pytest.mark.parametrize("item", ["second", "nothing=0.5", "second=half"])
def test_a_fixed_selection_parameter_is_a_known_name_and_a_number(item):
    with pytest.raises(SystemExit) as exc:
        main(["--select", item])
    assert exc.value.code == 2


def test_keeping_the_shipped_trees_needs_the_selection_to_change():
    with pytest.raises(SystemExit) as exc:
        main(["--keep-trees"])
    assert exc.value.code == 2


def test_catalog_weights_make_every_catalog_weigh_alike_at_power_zero():
    groups = np.array([0, 0, 0, 1])  # a catalog of three rows, one of one
    assert catalog_weights(groups, 1.0) is None  # every row alike: no weights
    alike = catalog_weights(groups, 0.0)
    assert alike is not None and alike.mean() == pytest.approx(1.0)
    assert alike[:3].sum() == pytest.approx(alike[3])
    sqrt = catalog_weights(groups, 0.5)
    assert sqrt is not None and sqrt[:3].sum() == pytest.approx(np.sqrt(3) * sqrt[3])


def test_pooled_means_pool_the_named_catalogs_counts_over_the_draws():
    rows = [prepare(c) for c in catalogs("dev") if c.key in ("neon", "box")]
    every = [{id(c): 1.0 for g in r.groups for c in g} for r in rows]  # every candidate certain
    params = {"threshold": 0.5, "second": 0.5, "per_parameter": 2, "hub_share": 1.0, "hub_min": 8, "root_extra": 1}
    [neon] = [c for c in evaluate(rows, "dev", Scorer((), 0.0, 0.0, **params), every)["catalogs"] if c["key"] == "neon"]
    text = pooled_means(rows, [every, every], params, ["neon"])
    first, second = text.splitlines()
    assert "1 catalogs (neon), mean of 2 draws" in first
    assert f"P {neon['true_positives'] / neon['predicted']:.3f} R {neon['true_positives'] / neon['gold']:.3f}" in first
    assert second.startswith("out-of-fold dev, all 2, mean of 2 draws")


def test_create_labels_change_only_catalogs_whose_gold_lists_creates(monkeypatch):
    """petstore's dev gold lists creates as providers (the newer convention), neon's does not: `negative` makes
    petstore's create candidates negatives, `drop` leaves them out, neither touches neon's rows."""
    by_key = {c.key: c for c in catalogs("dev") if c.key in ("petstore", "neon")}
    petstore, neon = prepare(by_key["petstore"]), prepare(by_key["neon"])
    assert lists_creates(petstore, "dev") and not lists_creates(neon, "dev")
    creates = [
        c.producer.kind == "create" for g in petstore.groups for c in g if c.consumer.name in petstore.scored["dev"]
    ]
    x, y, _ = matrix([petstore, neon], "dev")
    _, y_neon, _ = matrix([neon], "dev")
    assert y[: len(creates)][np.array(creates)].any()  # as labelled: some create is a gold provider
    monkeypatch.setitem(CREATES, "labels", "negative")
    _, y2, _ = matrix([petstore, neon], "dev")
    assert len(y2) == len(y) and not y2[: len(creates)][np.array(creates)].any()
    assert (y2[len(creates) :] == y_neon).all()
    monkeypatch.setitem(CREATES, "labels", "drop")
    _, y3, _ = matrix([petstore, neon], "dev")
    assert len(y3) == len(y) - sum(creates) and (y3[-len(y_neon) :] == y_neon).all()


def test_create_labels_is_one_of_three_choices():
    with pytest.raises(SystemExit) as exc:
        main(["--creates-labels", "maybe"])
    assert exc.value.code == 2
