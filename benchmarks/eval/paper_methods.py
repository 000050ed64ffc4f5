"""The seed papers' retrievers as their papers describe them, built from the public retrieval API (one or
more `Pipeline.retrieve` calls, then post-processing that is exactly what the paper does):

- GRTF (arXiv 2502.07223): the k = 3 seeds and their dependencies, cut to K, **no fill** (`without_fill`):
  our pipeline fills a short list with the next search hits, the paper does not. The list is cut where the
  pipeline's `fill` note says the fill began, so it is the pipeline's own order up to there. With an LLM,
  the paper reranks its k = 3 seeds only (`llm_reranked_top(3)`: the `rerank-llm` stage over the top 3,
  KG_TOOLS_LLM_RERANK_TOP_M = 3 for this method), where our `rerank: llm` chooses the seeds among 20.
- ToolScope (arXiv 2510.20036): each sub-query is searched (hybrid, alpha = 1.0, as its Table 7) and
  reranked on its own, each sub-query's top-1 comes first, then the rest by min-max normalised score
  (`per_subquery_toolscope`, kg_tools.retrieval.stages.fusion.toolscope over the reranked lists). The
  pipeline's `decompose` stage fuses the search scores and reranks the fused list once instead.
- RPS: every subtask gets its own K and the answer is their union (`per_subtask_union`); listed round-robin
  (each subtask's rank 1, then rank 2, ...) so that @k prefixes are defined. The union of the per-subtask
  top-k lists, what RPS hands the agent, is scored apart as `Recall@k/step` (and its size as `tools@k/step`).

Subtasks / sub-queries come from the offline splitter (`offline_decomposition`, the `decompose` stage's
offline path); with an LLM the papers decompose with it, which these methods do not reproduce (the
pipeline exposes the LLM's sub-requests only inside the `decompose` stage).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.eval.metrics import CUTOFFS, recall
from kg_tools.errors import EvalError
from kg_tools.retrieval.pipeline import Pipeline
from kg_tools.retrieval.request import RetrievalRequest, RetrievalResponse, StageInfo, ToolHit
from kg_tools.retrieval.stages.fusion import toolscope
from kg_tools.retrieval.stages.transform import offline_decomposition

_FILL = re.compile(r"gave (\d+) of K=")


def fill_start(response: RetrievalResponse) -> int | None:
    """Where the pipeline's K fill began (the seeds and their dependencies end there); None: no fill."""
    for stage in response.stages:
        if stage.name == "fill":
            found = _FILL.search(stage.detail)
            if found is None:
                raise EvalError(f"the pipeline's fill note changed ({stage.detail!r}): cannot cut the fill off")
            return int(found.group(1))
    return None


def without_fill(pipeline: Pipeline, request: RetrievalRequest) -> RetrievalResponse:
    """GRTF as the paper: k seeds and their dependencies, cut to K, never filled with further hits."""
    response = pipeline.retrieve(request)
    cut = fill_start(response)
    if cut is None:
        return response
    stages = [*response.stages, StageInfo(name="no-fill", detail=f"cut at {cut}: the paper does not fill K")]
    return RetrievalResponse(tools=response.tools[:cut], stages=stages, timing_ms=response.timing_ms)


def llm_reranked_top(m: int) -> Callable[[Pipeline, RetrievalRequest], RetrievalResponse]:
    """`without_fill` through a pipeline whose LLM reranker sees the top `m` candidates only."""
    pipelines: dict[int, Pipeline] = {}

    def retrieve(pipeline: Pipeline, request: RetrievalRequest) -> RetrievalResponse:
        if id(pipeline) not in pipelines:
            env = pipeline.env
            settings = env.settings.model_copy(update={"llm_rerank_top_m": m})
            pipelines[id(pipeline)] = Pipeline(env.graph, env.embedder, settings, **env.components)
        return without_fill(pipelines[id(pipeline)], request)

    return retrieve


def subtasks(query: str) -> list[str]:
    """The offline split of a request; a request that does not split is its own one subtask."""
    pieces = offline_decomposition(query)
    return pieces if len(pieces) > 1 else [query]


@dataclass
class _Scored:
    name: str
    score: float | None


def per_subquery_toolscope(pipeline: Pipeline, request: RetrievalRequest) -> RetrievalResponse:
    """ToolScope's retriever: per sub-query search + rerank, each sub-query's top-1 first, then the fill."""
    lists = [pipeline.retrieve(request.model_copy(update={"query": q})) for q in subtasks(request.query)]
    by_name = {t.name: t for r in reversed(lists) for t in r.tools}
    fused = toolscope([[_Scored(t.name, t.score) for t in r.tools] for r in lists])
    tools = [by_name[f.name].model_copy(update={"score": f.score}) for f in fused[: request.K]]
    return _combined(tools, lists, f"{len(lists)} sub-quer{'y' if len(lists) == 1 else 'ies'}, toolscope fusion")


def round_robin(lists: list[list[ToolHit]]) -> list[ToolHit]:
    out: dict[str, ToolHit] = {}
    for rank in range(max((len(x) for x in lists), default=0)):
        for tools in lists:
            if rank < len(tools):
                out.setdefault(tools[rank].name, tools[rank])
    return list(out.values())


def per_subtask_union(pipeline: Pipeline, request: RetrievalRequest) -> RetrievalResponse:
    """RPS: each subtask retrieved with its own K; the union, round-robin."""
    lists = [pipeline.retrieve(request.model_copy(update={"query": q})) for q in subtasks(request.query)]
    tools = round_robin([r.tools for r in lists])
    return _combined(tools, lists, f"{len(lists)} subtask(s), each K={request.K}, union round-robin")


def union_scores(response: RetrievalResponse, gold: frozenset[str], cutoffs=CUTOFFS) -> dict[str, float]:
    """RPS's own measure: the union of each subtask's top-k (Recall@k/step, and its size tools@k/step)."""
    lists = [s.detail.split(" | ") for s in response.stages if s.name == "subtask-list"]
    out: dict[str, float] = {}
    for k in cutoffs:
        union = list(dict.fromkeys(n for names in lists for n in names[:k]))
        out[f"Recall@{k}/step"] = recall(union, gold, max(len(union), 1))
        out[f"tools@{k}/step"] = float(len(union))
    return out


def _combined(tools: list[ToolHit], lists: list[RetrievalResponse], detail: str) -> RetrievalResponse:
    """One response from several: the sub-lists' names stay in `stages` (subtask-list) for union_scores."""
    stages = [StageInfo(name="paper-method", detail=detail)]
    stages += [StageInfo(name="subtask-list", detail=" | ".join(r.names)) for r in lists]
    timing = {"total": round(sum(r.timing_ms.get("total", 0.0) for r in lists), 3)}
    return RetrievalResponse(tools=tools, stages=stages, timing_ms=timing)
