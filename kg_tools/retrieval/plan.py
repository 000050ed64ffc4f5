"""The retrieval plan: every stage a request may name, listed here, and `build_plan`, the one place
that turns a request into its stage sequence, always of one shape:

    [transform stages] -> search -> [post-search stages, server-score, the reranker, self-check] -> expand
        -> [post-expand stages] -> order

The reranker is the request's `rerank` (the offline seed rescoring by default); how several queries'
lists are fused is the request's `fusion`. Their old stage names (`rerank-llm`, `fusion-rrf`, ...) are
aliases that set those fields (request.STAGE_ALIASES). One optimisation, not a second plan: when no
post-search stage needs more than the rows the expansion gets (none, server-score, the offline rescoring),
the search and the expansion go in one round trip (`Search(expand=True)`) and the rescoring reorders
the expanded rows; the seeds are the same (tests/test_default_ordering_pipeline.py)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from kg_tools.errors import UnknownStageError
from kg_tools.retrieval.context import INITIAL_FIELDS, PipelineEnv, Stage
from kg_tools.retrieval.queries import MIN_CANDIDATES
from kg_tools.retrieval.request import STAGE_ALIASES, RerankMode, RetrievalRequest
from kg_tools.retrieval.stages.dedupe import Dedupe
from kg_tools.retrieval.stages.enriched import EnrichedSearch
from kg_tools.retrieval.stages.order import OrderAndTruncate
from kg_tools.retrieval.stages.per_step import Diversify, PerStep, Utilities
from kg_tools.retrieval.stages.rerank import Rerank
from kg_tools.retrieval.stages.search import Expand, Search, rescores_seeds
from kg_tools.retrieval.stages.selfcheck import SelfCheck
from kg_tools.retrieval.stages.server_score import ServerScore
from kg_tools.retrieval.stages.split import split_request
from kg_tools.retrieval.stages.transform import Decompose, MultiQuery, Rewrite, Steps


@dataclass(frozen=True)
class StageEntry:
    """A name a request may give in `stages`: where its stage runs and how it is built, or (phase
    "alias") a request field it sets (request.STAGE_ALIASES)."""

    phase: Literal["transform", "post-search", "post-expand", "alias"]
    build: Callable[[PipelineEnv], Stage] | None = None
    after_rerank: bool = False  # a post-search stage that runs after the reranker (self-check, diversify)


STAGES: dict[str, StageEntry] = {
    "rewrite": StageEntry("transform", Rewrite),
    "decompose": StageEntry("transform", Decompose),
    "steps": StageEntry("transform", Steps),
    "multi-query": StageEntry("transform", MultiQuery),
    "enriched": StageEntry("transform", EnrichedSearch),
    "dedupe": StageEntry("post-search", Dedupe),
    "server-score": StageEntry("post-search", ServerScore),
    "self-check": StageEntry("post-search", SelfCheck, after_rerank=True),
    "per-step": StageEntry("transform", PerStep),
    "diversify": StageEntry("post-search", Diversify, after_rerank=True),
    "utilities": StageEntry("post-expand", Utilities),
    **{name: StageEntry("alias") for name in STAGE_ALIASES},
}

_SENTENCES = re.compile(r"[.!?;]\s+\S")  # split_steps applies to one-sentence requests only
_MAY_SPLIT = re.compile(r"[.!?;,]\s|\b(?:and|then|after|also|afterwards)\b", re.I)  # cheap test before split_request


def splits(request: RetrievalRequest) -> bool:
    """split_steps applies: no transform stage asked for, and the request names several steps."""
    if not request.split_steps:
        return False
    if any(STAGES[s].phase == "transform" for s in request.stages):
        return False
    if _SENTENCES.search(request.query):  # several sentences: mostly one goal told at length (ToolLinkOS dev)
        return False
    return bool(_MAY_SPLIT.search(request.query)) and len(split_request(request.query, 2)) > 1


def reranker(request: RetrievalRequest, transformed: bool) -> RerankMode | None:
    """The reranker that runs, if any. The offline rescoring is tuned on vector scores: by default it runs
    for vector and hybrid-boost searches of the request itself (a transform's fused lists carry other
    scores; steps rescore each list themselves); named in `stages` (`rerank-offline`) it always runs."""
    if request.rerank in ("cross-encoder", "llm"):
        return request.rerank
    if request.rerank == "offline" and (
        "rerank-offline" in request.stages or (rescores_seeds(request) and not transformed)
    ):
        return "offline"
    return None


def scores_servers(request: RetrievalRequest, transformed: bool) -> bool:
    """server-score runs by default (issue 29): `server_score` on, not named in `stages`, a search whose
    scores are vector scores (the blend's scale) of the request itself (a transform's lists carry others)."""
    return (
        request.server_score
        and "server-score" not in request.stages
        and request.mode in ("vector", "hybrid-boost")
        and not transformed
    )


def _built(entries: list[StageEntry], env: PipelineEnv, phase: str, after_rerank: bool = False) -> list[Stage]:
    return [e.build(env) for e in entries if e.build and e.phase == phase and e.after_rerank == after_rerank]


def build_plan(request: RetrievalRequest, env: PipelineEnv) -> list[Stage]:
    """The request's stages in the order they run; unknown stage names: UnknownStageError."""
    unknown = [s for s in request.stages if s not in STAGES]
    if unknown:
        raise UnknownStageError(f"unknown stage(s): {', '.join(unknown)}; available: {', '.join(sorted(STAGES))}")
    entries = [STAGES[n] for n in [*request.stages, *(["steps"] if splits(request) else [])]]
    transforms = _built(entries, env, "transform")
    method = reranker(request, bool(transforms))
    post_search = [
        *_built(entries, env, "post-search"),
        *([ServerScore(env, by_default=True)] if scores_servers(request, bool(transforms)) else []),
        *([Rerank(env, method)] if method else []),
        *_built(entries, env, "post-search", after_rerank=True),
    ]
    post_expand = _built(entries, env, "post-expand")
    if request.utilities and "utilities" not in request.stages:  # on by default (docs/retrieval.md)
        post_expand.append(Utilities(env))
    if not transforms and all(s.on_expanded_rows for s in post_search):
        # the query builder's optimisation: the search and the expansion in one round trip
        for stage in post_search:
            stage.expanded = True
        return [Search(env, request.k, expand=True), *post_search, *post_expand, OrderAndTruncate(env)]
    pool = max(request.k, MIN_CANDIDATES if post_search else request.k)
    return [*transforms, Search(env, pool), *post_search, Expand(env), *post_expand, OrderAndTruncate(env)]


def unmet_reads(stages: Sequence[Stage]) -> list[str]:
    """`stage: field` for every context field a stage reads that no earlier stage writes (nor the
    request's context holds from the start): empty for a sound plan."""
    written = set(INITIAL_FIELDS)
    unmet = []
    for stage in stages:
        unmet += [f"{stage.name}: {f}" for f in sorted(stage.reads - written)]
        written |= stage.writes
    return unmet
