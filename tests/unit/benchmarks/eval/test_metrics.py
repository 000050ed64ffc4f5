"""Ranking metrics on small hand-made rankings (values worked out by hand in the comments)."""

import math

import pytest

from benchmarks.eval.metrics import average_precision, csr, mean_scores, ndcg, precision_at, recall, score_ranking


def test_perfect_ranking_scores_one():
    gold = {"a", "b", "c"}
    for k in (3, 10):
        assert average_precision(["a", "b", "c", "x"], gold, k) == 1.0
        assert recall(["a", "b", "c", "x"], gold, k) == 1.0
        assert ndcg(["a", "b", "c", "x"], gold, k) == pytest.approx(1.0)


def test_average_precision_by_hand():
    # relevant at ranks 1 and 3 of gold {a, b}: (1/1 + 2/3) / min(2, 10) = 0.8333
    assert average_precision(["a", "x", "b"], {"a", "b"}, 10) == pytest.approx((1 + 2 / 3) / 2)
    # relevant only at rank 2 of three gold tools: (1/2) / 3
    assert average_precision(["x", "a"], {"a", "b", "c"}, 10) == pytest.approx(1 / 6)
    # order of gold does not matter (sets): ToolSandbox lists are call-ordered
    assert average_precision(["b", "a"], ["a", "b"], 10) == 1.0


def test_average_precision_normalises_by_min_gold_k():
    # 4 gold, k = 2, both top-2 relevant -> (1 + 1) / min(4, 2) = 1.0 (not 0.5)
    assert average_precision(["a", "b", "c", "d"], {"a", "b", "c", "d"}, 2) == 1.0
    # truncation: the relevant tool at rank 3 does not count at k = 2
    assert average_precision(["x", "y", "a"], {"a"}, 2) == 0.0


def test_recall_and_precision():
    assert recall(["a", "x", "y", "b"], {"a", "b", "c", "d"}, 3) == 0.25
    assert recall(["a", "x", "y", "b"], {"a", "b", "c", "d"}, 4) == 0.5
    assert precision_at(["a", "x", "y", "b"], {"a", "b"}, 4) == 0.5


def test_ndcg_binary_by_hand():
    # gold {a, b}; a at rank 2, b missing: DCG = 1/log2(3); IDCG = 1 + 1/log2(3)
    expected = (1 / math.log2(3)) / (1 + 1 / math.log2(3))
    assert ndcg(["x", "a"], {"a", "b"}, 10) == pytest.approx(expected)
    # IDCG uses min(|G|, k) ideal hits
    assert ndcg(["a"], {"a", "b", "c"}, 1) == pytest.approx(1.0)


def test_duplicates_count_once():
    assert average_precision(["a", "a", "b"], {"a", "b"}, 10) == 1.0
    assert recall(["a", "a", "x"], {"a", "b"}, 2) == 0.5  # top-2 unique = [a, x]


def test_csr_is_set_equality():
    assert csr(["b", "a"], {"a", "b"}, 2) == 1.0
    assert csr(["b", "a", "c"], {"a", "b"}, 3) == 0.0  # an extra tool: not the gold set
    assert csr(["b", "a", "c"], {"a", "b"}, 2) == 1.0
    assert csr(["a"], {"a", "b"}, 5) == 0.0


def test_empty_gold_and_bad_k():
    assert average_precision(["a"], set(), 10) == 0.0
    assert recall(["a"], [], 10) == 0.0
    with pytest.raises(ValueError):
        recall(["a"], {"a"}, 0)


def test_score_ranking_and_mean():
    a = score_ranking(["a", "x"], {"a"}, cutoffs=(1, 2))
    b = score_ranking(["x", "a"], {"a"}, cutoffs=(1, 2))
    assert a["mAP@1"] == 1.0 and b["mAP@1"] == 0.0 and b["mAP@2"] == 0.5
    means = mean_scores([a, b])
    assert means["mAP@2"] == pytest.approx(0.75)
    assert means["Recall@1"] == pytest.approx(0.5)
    assert set(a) == {"mAP@1", "mAP@2", "Recall@1", "Recall@2", "nDCG@1", "nDCG@2"}
