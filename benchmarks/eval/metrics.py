"""Ranking metrics for tool retrieval (binary relevance), named as the papers name them.

`ranked` is the retrieved list of tool names, best first (duplicates after the first occurrence
are ignored); `gold` is the set of relevant tool names (order never matters: ToolSandbox's
golden lists are call-ordered sets, ToolLinkOS's are sets that happen to start with the main tool).
rel_i = 1 when the i-th retrieved tool is in `gold`, else 0.

- P@i        = (1/i) * sum_{j<=i} rel_j
- AP@k       = (1 / min(|G|, k)) * sum_{i<=k} P@i * rel_i
               The Graph RAG-Tool Fusion paper reports mAP@10/20/30 without publishing evaluation
               code (its repository holds only data and figures), so we use this common
               truncated-AP normaliser: a ranking that puts min(|G|, k) relevant tools in the
               first positions scores 1, whether or not |G| > k.
- mAP@k      = mean of AP@k over queries
- Recall@k   = |top-k ∩ G| / |G|
- nDCG@k     = DCG@k / IDCG@k, DCG@k = sum_{i<=k} rel_i / log2(i + 1),
               IDCG@k = sum_{i<=min(|G|,k)} 1 / log2(i + 1)
- CSR@k      = 1 if set(top-k) == G else 0 (ToolScope's correct selection: the selected set is
               exactly the gold set; with a selection shorter than k, top-k is the whole selection)

Every function returns 0.0 for an empty gold set (nothing can be found).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence


def _unique(ranked: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ranked))


def _check_k(k: int) -> None:
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")


def precision_at(ranked: Sequence[str], gold: Iterable[str], i: int) -> float:
    _check_k(i)
    gold = set(gold)
    return sum(1 for name in _unique(ranked)[:i] if name in gold) / i


def average_precision(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    _check_k(k)
    gold = set(gold)
    if not gold:
        return 0.0
    hits, total = 0, 0.0
    for i, name in enumerate(_unique(ranked)[:k], 1):
        if name in gold:
            hits += 1
            total += hits / i
    return total / min(len(gold), k)


def recall(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    _check_k(k)
    gold = set(gold)
    if not gold:
        return 0.0
    return len(gold.intersection(_unique(ranked)[:k])) / len(gold)


def ndcg(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    _check_k(k)
    gold = set(gold)
    if not gold:
        return 0.0
    dcg = sum(1.0 / math.log2(i + 1) for i, name in enumerate(_unique(ranked)[:k], 1) if name in gold)
    idcg = sum(1.0 / math.log2(i + 1) for i in range(1, min(len(gold), k) + 1))
    return dcg / idcg


def csr(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    _check_k(k)
    gold = set(gold)
    if not gold:
        return 0.0
    return 1.0 if set(_unique(ranked)[:k]) == gold else 0.0


METRICS = {"mAP": average_precision, "Recall": recall, "nDCG": ndcg, "CSR": csr}
TABLE_METRICS = ("mAP", "Recall", "nDCG")  # the Graph RAG-Tool Fusion paper's Table 3
CUTOFFS = (10, 20, 30)


def score_ranking(
    ranked: Sequence[str], gold: Iterable[str], cutoffs: Sequence[int] = CUTOFFS, metrics: Sequence[str] = TABLE_METRICS
) -> dict[str, float]:
    """One query: {"mAP@10": AP@10, "Recall@10": ..., ...} (per-query AP, averaged later)."""
    gold = set(gold)
    return {f"{m}@{k}": METRICS[m](ranked, gold, k) for m in metrics for k in cutoffs}


def mean_scores(per_query: Sequence[dict[str, float]]) -> dict[str, float]:
    """Average per-query scores key by key (mAP@k = mean AP@k)."""
    if not per_query:
        return {}
    keys = per_query[0].keys()
    return {key: sum(s[key] for s in per_query) / len(per_query) for key in keys}
