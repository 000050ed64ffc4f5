"""The retrieval plan: every stage a request may name, listed here, and `build_plan`, the one place
that turns a request into its stage sequence:

    [transform stages] -> search -> [post-search stages, rerankers, self-check] -> expand -> order

When nothing runs between the search and the expansion (the default), both are one round trip
(`SearchAndExpand`) and the offline seed rescoring applies to its rows in `OrderAndTruncate`;
otherwise the offline rescoring is the `rerank-offline` stage over the search candidates. Both
give the same seeds (tests/integration/test_default_ordering.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from kg_tools.errors import UnknownStageError
from kg_tools.retrieval.context import PipelineEnv, Stage
from kg_tools.retrieval.queries import MIN_CANDIDATES
from kg_tools.retrieval.request import RetrievalRequest
from kg_tools.retrieval.stages.dedupe import Dedupe
from kg_tools.retrieval.stages.enriched import EnrichedSearch
from kg_tools.retrieval.stages.order import OrderAndTruncate
from kg_tools.retrieval.stages.rerank import CrossEncoderRerank, LLMRerank, OfflineRerank
from kg_tools.retrieval.stages.search import Expand, Search, SearchAndExpand, rescores_seeds
from kg_tools.retrieval.stages.selfcheck import SelfCheck
from kg_tools.retrieval.stages.server_score import ServerScore
from kg_tools.retrieval.stages.split import split_request
from kg_tools.retrieval.stages.transform import Decompose, FusionChoice, MultiQuery, Rewrite, Steps


@dataclass(frozen=True)
class StageEntry:
    """A stage a request may name: where it runs and how it is built."""

    phase: Literal["transform", "post-search"]  # before the search / on the search candidates
    build: Callable[[PipelineEnv], Stage]
    after_rerank: bool = False  # a post-search stage that runs after the rerankers (self-check)


STAGES: dict[str, StageEntry] = {
    "rewrite": StageEntry("transform", Rewrite),
    "decompose": StageEntry("transform", Decompose),
    "steps": StageEntry("transform", Steps),
    "multi-query": StageEntry("transform", MultiQuery),
    "enriched": StageEntry("transform", EnrichedSearch),
    "fusion-rrf": StageEntry("transform", lambda env: FusionChoice(env, "rrf")),
    "fusion-max": StageEntry("transform", lambda env: FusionChoice(env, "max")),
    "fusion-round-robin": StageEntry("transform", lambda env: FusionChoice(env, "round-robin")),
    "dedupe": StageEntry("post-search", Dedupe),
    "server-score": StageEntry("post-search", ServerScore),
    "rerank-offline": StageEntry("post-search", OfflineRerank),
    "rerank-cross-encoder": StageEntry("post-search", CrossEncoderRerank),
    "rerank-llm": StageEntry("post-search", LLMRerank),
    "self-check": StageEntry("post-search", SelfCheck, after_rerank=True),
}

_SENTENCES = re.compile(r"[.!?;]\s+\S")  # split_steps applies to one-sentence requests only
_MAY_SPLIT = re.compile(r"[.!?;,]\s|\b(?:and|then|after|also|afterwards)\b", re.I)  # cheap test before split_request


def rerankers(request: RetrievalRequest) -> list[str]:
    """Reranker stages named by `rerank` ("offline" is the built-in rescoring: see build_plan)."""
    return [] if request.rerank in ("none", "offline") else [f"rerank-{request.rerank}"]


def splits(request: RetrievalRequest) -> bool:
    """split_steps applies: no transform stage asked for, and the request names several steps."""
    if not request.split_steps:
        return False
    if any(STAGES[s].phase == "transform" for s in request.stages):
        return False
    if _SENTENCES.search(request.query):  # several sentences: mostly one goal told at length (ToolLinkOS dev)
        return False
    return bool(_MAY_SPLIT.search(request.query)) and len(split_request(request.query, 2)) > 1


def build_plan(request: RetrievalRequest, env: PipelineEnv) -> list[Stage]:
    """The request's stages in the order they run; unknown stage names: UnknownStageError."""
    unknown = [s for s in [*request.stages, *rerankers(request)] if s not in STAGES]
    if unknown:
        raise UnknownStageError(f"unknown stage(s): {', '.join(unknown)}; available: {', '.join(sorted(STAGES))}")
    names = [*request.stages, *(["steps"] if splits(request) else [])]
    transforms = [STAGES[s].build(env) for s in names if STAGES[s].phase == "transform"]
    on_candidates = [s for s in names if STAGES[s].phase == "post-search" and not STAGES[s].after_rerank]
    late = [s for s in names if STAGES[s].phase == "post-search" and STAGES[s].after_rerank]
    ranking = rerankers(request)
    if not transforms and not on_candidates and not late and not ranking:
        # the default: one round trip; the offline rescoring runs over its rows in OrderAndTruncate
        return [SearchAndExpand(env), OrderAndTruncate(env, rescore=rescores_seeds(request))]
    if rescores_seeds(request) and not transforms and "rerank-offline" not in request.stages:
        ranking.append("rerank-offline")
    post_search = [STAGES[s].build(env) for s in [*on_candidates, *ranking, *late]]
    pool = max(request.k, MIN_CANDIDATES if post_search else request.k)
    return [*transforms, Search(env, pool), *post_search, Expand(env), OrderAndTruncate(env)]
