"""Run retrieval methods over a benchmark through the real Pipeline and score them.

A method is a named RetrievalRequest template. The paper's baselines (lexical, vector, hybrid)
are plain top-K lists: no expansion (depth 0) and k = K. GRTF is k = 3 seeds, dependency
expansion, cut to K. Every query is retrieved once per method with K = max cutoff (30); the
@10 and @20 lists are prefixes of it (the order never depends on K). The seed papers' own methods
(`grtf_paper`, `toolscope`, `rps`) run their request through benchmarks/eval/paper_methods.py.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from benchmarks.eval import paper_methods
from benchmarks.eval.datasets import EvalDataset, EvalInstance
from benchmarks.eval.metrics import CUTOFFS, mean_scores, score_ranking
from kg_tools.cypher import query
from kg_tools.errors import EvalError
from kg_tools.ingest import LoadMode, load_catalog
from kg_tools.retrieval.pipeline import Pipeline
from kg_tools.retrieval.plan import STAGES
from kg_tools.retrieval.request import RetrievalRequest, RetrievalResponse
from kg_tools.tool_spec import spec_hash

GRTF_K = 3
HYBRID_ALPHA = 0.8
TOOLSCOPE_ALPHA = 1.0  # ToolScope's Table 7 setting, as issue 29 quotes it
PAPER_RERANK_TOP = 3  # GRTF reranks its k = 3 seeds only


@dataclass(frozen=True)
class Method:
    name: str
    description: str
    request: dict  # RetrievalRequest fields except query/K
    graph: bool  # seeds + expansion (error analysis applies)
    # how the request is retrieved (default: one Pipeline.retrieve); the papers' methods (paper_methods.py)
    retrieve: Callable[[Pipeline, RetrievalRequest], RetrievalResponse] | None = None
    # scores of its own beside the table's, per query (RPS: the union of the per-subtask top-k)
    extra_scores: Callable[[RetrievalResponse, frozenset[str]], dict[str, float]] | None = None
    needs_llm: bool = False  # the method is the paper's only with an LLM


@dataclass
class GraphOptions:
    """The user's pipeline options; they apply to every graph (GRTF) method."""

    stages: tuple[str, ...] = ()
    rerank: str | None = None  # None: the request's default (offline)
    prefer_direct: bool = False
    skip_supplied_parameters: bool = False
    edge_types: tuple[str, ...] = ()

    def fields(self) -> dict:
        out = {
            "stages": list(self.stages),
            "prefer_direct": self.prefer_direct,
            "skip_supplied_parameters": self.skip_supplied_parameters,
        }
        if self.edge_types:
            out["edge_types"] = list(self.edge_types)
        return out


def plain(mode: str, k: int, **extra) -> dict:
    return {"mode": mode, "k": k, "depth": 0, "utilities": False, "server_score": False, **extra}


def method_catalog(K: int, options: GraphOptions, rerank: str) -> dict[str, Method]:
    """Every method eval knows. `rerank` is the configured reranker (or "none")."""
    # `grtf` is exactly what POST /v1/retrieve does with only `query` (and K); the rest are ablations.
    grtf = {
        "k": GRTF_K,
        "depth": 5,
        **({"rerank": options.rerank} if options.rerank else {}),
        **options.fields(),
    }
    paper = {
        **grtf,
        "mode": "vector",
        "rerank": "none",
        "supplied_last": False,
        "utilities": False,
        "server_score": False,
    }
    # ToolScope's retriever: no graph; each sub-query reranked by the configured reranker, if any
    scope = plain("hybrid", K, alpha=TOOLSCOPE_ALPHA, rerank="cross-encoder" if rerank == "cross-encoder" else "none")
    methods = [
        Method("lexical", "fulltext (Lucene BM25) top-K, no expansion", plain("fulltext", K), False),
        Method(
            "vector", "vector top-K (naive RAG), no expansion, no rescoring", plain("vector", K, rerank="none"), False
        ),
        Method(
            "hybrid", f"alpha={HYBRID_ALPHA} hybrid top-K, no expansion", plain("hybrid", K, alpha=HYBRID_ALPHA), False
        ),
        Method("rrf", "reciprocal-rank-fusion hybrid top-K, no expansion", plain("rrf", K), False),
        Method(
            "grtf",
            f"the default pipeline: hybrid-boost k={GRTF_K} after the offline seed rescoring, depth 5, "
            "supplied-value dependencies last, cut to K",
            grtf,
            True,
        ),
        Method(
            "grtf_paper",
            "the GRTF paper's method: vector top-3 in search order, depth-first, cut to K, no fill",
            paper,
            True,
            paper_methods.without_fill,
        ),
        Method(
            "grtf_paper_rerank",
            f"the GRTF paper's method with its LLM rerank of the top {PAPER_RERANK_TOP} only, no fill (needs an LLM)",
            {**paper, "rerank": "llm"},
            True,
            paper_methods.llm_reranked_top(PAPER_RERANK_TOP),
            needs_llm=True,
        ),
        Method(
            "grtf_paper_fill",
            "grtf_paper with the K fill (the issue-9 baseline, the default before it)",
            paper,
            True,
        ),
        Method(
            "toolscope",
            f"ToolScope's retriever: hybrid alpha {TOOLSCOPE_ALPHA} per sub-query (offline split), each reranked "
            "(with a configured cross-encoder), each sub-query's top-1 first, then filled by normalised score",
            scope,
            False,
            paper_methods.per_subquery_toolscope,
        ),
        Method(
            "rps",
            "RPS: each subtask (offline split) its own vector top-K, the union round-robin; "
            "Recall@k/step scores the union of the per-subtask top-k",
            plain("vector", K, rerank="none"),
            False,
            paper_methods.per_subtask_union,
            paper_methods.union_scores,
        ),
        Method(
            "grtf_steps",
            "default with split_steps: a multi-step request searched step by step, merged round-robin",
            {**grtf, "split_steps": True},
            True,
        ),
        Method("grtf_no_steps", "default with split_steps off", {**grtf, "split_steps": False}, True),
        Method(
            "grtf_no_utilities",
            "default without the utilities a step implies nor the server score (the default before issue 29)",
            {**grtf, "utilities": False, "server_score": False},
            True,
        ),
        Method(
            "grtf_no_server",
            "default without the server score (the default before it was, 2026-11-28)",
            {**grtf, "server_score": False},
            True,
        ),
        Method(
            "grtf_per_step",
            "default plus per-step retrieval (each step searched with its own k, merged round-robin)",
            {**grtf, "stages": [*grtf["stages"], "per-step"]},
            True,
        ),
        Method(
            "grtf_server",
            "default with the server-score stage named (the default runs it too; needs (:Server) "
            "nodes: the gateway's, or eval catalog --servers)",
            {**grtf, "stages": [*grtf["stages"], "server-score"]},
            True,
        ),
        Method(
            "grtf_vector",
            "the default with plain vector search (mode vector: the default before hybrid-boost)",
            {**grtf, "mode": "vector"},
            True,
        ),
        Method("grtf_no_rescore", "default without the seed rescoring (rerank none)", {**grtf, "rerank": "none"}, True),
        Method(
            "grtf_no_supplied_last",
            "default without moving supplied-value dependencies last",
            {**grtf, "supplied_last": False},
            True,
        ),
        Method("grtf_rerank", f"GRTF with the {rerank} reranker", {**grtf, "rerank": rerank}, True),
        Method(
            "grtf_direct",
            "GRTF, direct dependencies before indirect (prefer_direct)",
            {**grtf, "prefer_direct": True},
            True,
        ),
        Method(
            "grtf_tool_edges",
            "GRTF over TOOL_* edges only (edge_types restriction)",
            {**grtf, "edge_types": ["TOOL_DIRECTLY_DEPENDS_ON", "TOOL_INDIRECTLY_DEPENDS_ON"]},
            True,
        ),
        Method(
            "grtf_direct_edges",
            "GRTF over *_DIRECTLY_* edges only (edge_types restriction)",
            {**grtf, "edge_types": ["TOOL_DIRECTLY_DEPENDS_ON", "PARAMETER_DIRECTLY_DEPENDS_ON"]},
            True,
        ),
        Method(
            "grtf_skip_supplied",
            "GRTF, PARAMETER_* dependencies the query supplies dropped",
            {**grtf, "skip_supplied_parameters": True},
            True,
        ),
        Method(
            "grtf_offline",
            "the default through the staged path (search, stage rerank-offline, expand): must equal grtf",
            {**grtf, "stages": [*grtf["stages"], "rerank-offline"]},
            True,
        ),
    ]
    return {m.name: m for m in methods}


DEFAULT_METHODS = ("lexical", "vector", "hybrid", "grtf_paper", "grtf")


def configured_reranker(settings, requested: str = "none") -> str:
    """The reranker for grtf_rerank: the one asked for, else a configured one, else "none"."""
    if requested != "none":
        if f"rerank-{requested}" not in STAGES:
            raise EvalError(f"reranker {requested!r} is not available (no stage rerank-{requested} registered)")
        return requested
    if settings.cross_encoder_model and "rerank-cross-encoder" in STAGES:
        return "cross-encoder"
    if settings.llm_configured and "rerank-llm" in STAGES:
        return "llm"
    return "none"


def select_methods(
    names: Sequence[str] | None, K: int, options: GraphOptions, rerank: str, llm_configured: bool = False
) -> list[Method]:
    known = method_catalog(K, options, rerank)
    wanted = list(names) if names else [*DEFAULT_METHODS, *(["grtf_rerank"] if rerank != "none" else [])]
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise EvalError(f"unknown method(s): {', '.join(unknown)}; known: {', '.join(known)}")
    if "grtf_rerank" in wanted and rerank == "none":
        raise EvalError(
            "grtf_rerank needs a reranker: pass --rerank cross-encoder|llm, or configure "
            "KG_TOOLS_CROSS_ENCODER / OPENAI_BASE_URL"
        )
    without_llm = [n for n in wanted if known[n].needs_llm and not llm_configured]
    if without_llm:
        raise EvalError(f"{', '.join(without_llm)} needs an LLM: configure OPENAI_BASE_URL (docs/stages.md)")
    return [known[n] for n in wanted]


# -- the graph must hold exactly the benchmark's catalog --------------------------------------


def catalog_status(graph, embedder, dataset: EvalDataset) -> str | None:
    """None when the graph holds exactly this catalog (same specs, embedded by this model), else why not."""
    stored = {r["name"]: r for r in graph.read(query("tool_state"), catalog=None)}
    wanted = {t["name"]: spec_hash(t) for t in dataset.tools}
    if not stored:
        return "the graph is empty"
    if set(stored) != set(wanted):
        extra, missing = len(set(stored) - set(wanted)), len(set(wanted) - set(stored))
        return f"the graph holds a different catalog ({missing} of the benchmark's tools missing, {extra} others)"
    stale = [n for n, h in wanted.items() if stored[n]["spec_hash"] != h or stored[n]["catalog"] != dataset.name]
    if stale:
        return f"{len(stale)} tool(s) differ from the benchmark files"
    unembedded = [n for n, r in stored.items() if not r["has_embedding"] or r["embedding_model"] != embedder.name]
    if unembedded:
        return f"{len(unembedded)} tool(s) not embedded with {embedder.name}"
    return None


def ensure_catalog(graph, embedder, dataset: EvalDataset, settings, log: Callable[[str], None]) -> bool:
    """Load the benchmark's catalog (replace_all=True) unless the graph already is it. True when loaded."""
    reason = catalog_status(graph, embedder, dataset)
    if reason is None:
        log(f"graph holds the {dataset.name} catalog ({len(dataset.tools)} tools): evaluating as loaded")
        return False
    log(f"{reason}: loading {dataset.name} with replace_all=True (every current tool is deleted)")
    load_catalog(
        graph,
        embedder,
        dataset.tools,
        dataset.name,
        LoadMode.REPLACE_ALL,
        batch_size=settings.write_batch_size,
        log=lambda *_: None,
    )
    return True


# -- running ----------------------------------------------------------------------------------


@dataclass
class QueryResult:
    instance: EvalInstance
    names: list[str]
    seeds: list[str]
    scores: dict[str, float]


@dataclass
class MethodResult:
    method: Method
    results: list[QueryResult] = field(default_factory=list)
    seconds: float = 0.0

    def row(self) -> dict:
        means = mean_scores([r.scores for r in self.results])
        return {
            "method": self.method.name,
            **{k: round(v, 4) for k, v in means.items()},
            "queries": len(self.results),
            "seconds": round(self.seconds, 2),
        }


def run_method(
    pipeline: Pipeline,
    method: Method,
    instances: Sequence[EvalInstance],
    catalog: str | None,
    cutoffs: Sequence[int] = CUTOFFS,
    progress: Callable[[int], None] | None = None,
) -> MethodResult:
    K = max(cutoffs)
    out = MethodResult(method)
    t0 = time.perf_counter()
    for n, inst in enumerate(instances, 1):
        # a method may set its own K (a test of the order without the fill); else every cut-off's worth
        request = RetrievalRequest(**{"query": inst.query, "K": K, "catalog": catalog, **method.request})
        response = (method.retrieve or Pipeline.retrieve)(pipeline, request)
        names = response.names
        seeds = [t.name for t in response.tools if t.role == "seed"]
        scores = score_ranking(names, inst.gold, cutoffs)
        if method.extra_scores:
            scores |= method.extra_scores(response, inst.gold)
        out.results.append(QueryResult(inst, names, seeds, scores))
        if progress:
            progress(n)
    out.seconds = time.perf_counter() - t0
    return out


def error_analysis(result: MethodResult, k: int = 10) -> dict:
    """The paper's Figure 3 for a graph method at cut-off k, over queries not fully retrieved:
    main tool not among the seeds (search missed it); a seed but not the first one and gold tools cut
    by truncation to k; the first seed but a gold dependency cut (not reached, or truncated)."""
    counts = {
        "queries": len(result.results),
        "all_gold_in_top_k": 0,
        "main_not_in_seeds": 0,
        "main_in_seeds_not_first_truncated": 0,
        "main_first_dependency_cut": 0,
        "no_main_tool": 0,
    }
    for r in result.results:
        main = r.instance.main
        if r.instance.gold <= set(r.names[:k]):
            counts["all_gold_in_top_k"] += 1
        elif main is None:
            counts["no_main_tool"] += 1
        elif main not in r.seeds:
            counts["main_not_in_seeds"] += 1
        elif r.seeds[0] != main:
            counts["main_in_seeds_not_first_truncated"] += 1
        else:
            counts["main_first_dependency_cut"] += 1
    counts["k"] = k
    return counts
