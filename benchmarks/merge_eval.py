"""Seal-Tools evaluation of merging: retrieval before/after (gold relabelled through phi), TCCR, UCC.

Retrieval: lexical (fulltext BM25 over name, split name words, description, parameter text),
vector, hybrid (alpha-weighted, configurable) and rrf (reciprocal rank fusion of both legs), each
optionally with extra pipeline stages (e.g. decompose), top-10 without expansion (Seal-Tools has no dependency edges); Recall@5/@10
and CSR@5/@10 from benchmarks.eval.metrics. After a merge the retrieved names are canonical tools
and each query's gold set is {phi(g)}.

Functionality preservation. ToolScope (arXiv 2510.20036) reports TCCR and UCC in its Appendix K;
the stored copies we could consult held only the paper's abstract, so these are our operational
definitions, stated exactly:
- TCCR (tool-call compatibility rate): of the gold calls in the queries that are valid for the
  original tool (every argument is a parameter, every required parameter is given), the share that
  are still valid for phi(tool)'s canonical signature.
- UCC (unique capability coverage): the share of original tools t whose whole signature survives in
  phi(t): every parameter name of t is a parameter of phi(t) and every required parameter of
  phi(t) is a parameter of t (so anything t could be asked to do, phi(t) can be asked too).
Both are 1.0 for an empty merge.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.eval import paper_methods
from benchmarks.eval.metrics import csr, recall
from kg_tools.merge.plan import MergePlan
from kg_tools.retrieval import Pipeline, RetrievalRequest

MODES = {"lexical": "fulltext", "vector": "vector", "hybrid": "hybrid", "rrf": "rrf"}
# the seed papers' retrievers (benchmarks/eval/paper_methods.py): ToolScope's own (hybrid alpha 1.0, per
# sub-query, top-1s first) and RPS's (vector per subtask, the union); `--stages` does not apply to them
PAPER_METHODS = {"toolscope": ("hybrid", 1.0), "rps": ("vector", None)}
METHODS = (*MODES, *PAPER_METHODS)
DEFAULT_METHODS = ("lexical", "vector", "hybrid")
DEFAULT_ALPHA = 0.8
CUTOFFS = (5, 10)


@dataclass
class Query:
    id: str
    query: str
    gold: list[str]
    calling: list[dict]


def score(ranked: list[str], gold: set[str]) -> dict[str, float]:
    out = {}
    for k in CUTOFFS:
        out[f"Recall@{k}"] = recall(ranked, gold, k)
    for k in CUTOFFS:
        out[f"CSR@{k}"] = csr(ranked, gold, k)
    return out


def method_request(method: str, alpha: float = DEFAULT_ALPHA, stages: Sequence[str] = ()) -> dict:
    """The RetrievalRequest fields of one method: its search mode (the plain retriever, without the
    offline seed rescoring), alpha (hybrid only) and extra stages."""
    if method in PAPER_METHODS:
        mode, paper_alpha = PAPER_METHODS[method]
        return {"mode": mode, "rerank": "none", **({"alpha": paper_alpha} if paper_alpha is not None else {})}
    if method not in MODES:
        raise ValueError(f"unknown method {method!r}; one of {', '.join(METHODS)}")
    request: dict[str, Any] = {"mode": MODES[method], "rerank": "none", "stages": list(stages)}
    if method == "hybrid":
        request["alpha"] = alpha
    return request


def retrieval_rows(
    pipeline: Pipeline,
    queries: Sequence[Query],
    phi: dict[str, str],
    merged: bool,
    catalog: str,
    methods: Sequence[str] = DEFAULT_METHODS,
    alpha: float = DEFAULT_ALPHA,
    stages: Sequence[str] = (),
    progress: Callable[[str], None] = lambda _: None,
) -> list[dict]:
    """One row per method: mean Recall/CSR@5/@10 over the queries (top-10, no expansion).

    Each row names its `stages` (and `alpha` for hybrid) so a table or JSON row says what ran."""
    rows = []
    if any(MODES.get(m) != "fulltext" for m in methods):
        # one batched encode (cached by the embedder) instead of one encode per query
        pipeline.env.embedder.embed([q.query for q in queries], query=True)
    for method in methods:
        fields = method_request(method, alpha, stages)
        retrieve = {"toolscope": paper_methods.per_subquery_toolscope, "rps": paper_methods.per_subtask_union}.get(
            method, Pipeline.retrieve
        )
        t0 = time.perf_counter()
        totals: dict[str, float] = {}
        for q in queries:
            request = RetrievalRequest(
                query=q.query,
                k=max(CUTOFFS),
                K=max(CUTOFFS),
                depth=0,
                catalog=catalog,
                utilities=False,
                server_score=False,
                **fields,
            )  # plain top-K lists, as runner.plain: no dependencies, no implied utilities, no server score
            ranked = retrieve(pipeline, request).names
            gold = {phi.get(g, g) for g in q.gold}
            for key, value in score(ranked, gold).items():
                totals[key] = totals.get(key, 0.0) + value
        row = {"method": method, "merged": merged, "stages": fields.get("stages", [])}
        if "alpha" in fields:
            row["alpha"] = fields["alpha"]
        row |= {key: round(v / len(queries), 4) for key, v in totals.items()}
        row |= {"queries": len(queries), "seconds": round(time.perf_counter() - t0, 1)}
        progress(
            f"  {method:8s} merged={merged!s:5s} stages={','.join(row['stages']) or '-'} "
            + "  ".join(f"{k} {row[k]:.3f}" for k in totals)
        )
        rows.append(row)
    return rows


def _signature(spec: dict) -> tuple[set[str], set[str]]:
    params = spec.get("parameters") or []
    return {p["name"] for p in params}, {p["name"] for p in params if p.get("required")}


def _valid(call_args: set[str], spec: dict) -> bool:
    names, required = _signature(spec)
    return call_args <= names and required <= call_args


def canonical_specs(plan: MergePlan, specs: dict[str, dict]) -> dict[str, dict]:
    """tool -> the spec a call to it meets after the merge (its canonical's, or its own)."""
    by_canonical = {c.canonical: c.spec for c in plan.clusters}
    phi = plan.phi
    return {name: by_canonical.get(phi.get(name, name), spec) for name, spec in specs.items()}


def tccr(queries: Sequence[Query], specs: dict[str, dict], after: dict[str, dict]) -> float:
    valid_before = valid_after = 0
    for q in queries:
        for call in q.calling:
            api, args = call.get("api"), set((call.get("parameters") or {}).keys())
            if api not in specs or not _valid(args, specs[api]):
                continue
            valid_before += 1
            valid_after += _valid(args, after[api])
    return valid_after / valid_before if valid_before else 1.0


def ucc(specs: dict[str, dict], after: dict[str, dict]) -> float:
    covered = 0
    for name, spec in specs.items():
        names, _ = _signature(spec)
        c_names, c_required = _signature(after[name])
        covered += names <= c_names and c_required <= names
    return covered / len(specs) if specs else 1.0


def merge_summary(plan: MergePlan, queries: Sequence[Query], specs: dict[str, dict]) -> dict:
    after = canonical_specs(plan, specs)
    t = plan.timing_s
    return {
        "theta": plan.theta,
        "tools_before": plan.tools_before,
        "tools_after": plan.tools_after,
        "clusters": len(plan.clusters),
        "merged": len(plan.phi),
        "tccr": round(tccr(queries, specs, after), 4),
        "ucc": round(ucc(specs, after), 4),
        "classifier": plan.classifier,
        "validator": plan.validator,
        "writer": plan.writer,
        "candidates": plan.candidates,
        "accepted_pairs": len(plan.accepted),
        "candidate_seconds": t.get("candidates"),
        "classify_seconds": t.get("classify"),
        "candidates_plus_classify_seconds": round(t.get("candidates", 0) + t.get("classify", 0), 3),
        "run": plan.run_id,
    }
