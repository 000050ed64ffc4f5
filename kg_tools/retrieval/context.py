"""What the retrieval stages share: the typed state a request accumulates (`RetrievalContext`), what
stages may use (`PipelineEnv`) and the `Stage` interface. The plan (plan.py) lists the stages."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Literal

from kg_tools.embeddings import Embedder
from kg_tools.graph import Graph
from kg_tools.retrieval import queries
from kg_tools.retrieval.expansion import DependencyExpansion, Row
from kg_tools.retrieval.recording import record
from kg_tools.retrieval.request import RetrievalRequest, StageInfo, ToolHit
from kg_tools.retrieval.seed_cache import SeedCache
from kg_tools.settings import Settings
from kg_tools.telemetry import span

Fusion = Literal["toolscope", "rrf", "max", "round-robin"]


@dataclass
class Candidate:
    """A search result before expansion."""

    name: str
    score: float | None
    description: str = ""
    spec: str | None = None


@dataclass(frozen=True)
class SearchSource:
    """Another search than the request mode's (e.g. `enriched`): its Cypher and extra parameters."""

    cypher: str
    params: dict[str, Any]


@dataclass
class RetrievalContext:
    """Everything a request accumulates on its way through the stages. Transform stages set the
    search's inputs (queries, fusion, source, rescore_each); Search sets `candidates`, post-search
    stages reorder them; the expansion sets `rows`; OrderAndTruncate sets `tools`."""

    request: RetrievalRequest
    queries: list[str] = field(default_factory=list)  # search queries (after any transformation)
    fusion: Fusion = "toolscope"  # how several queries' lists are fused (transform stages choose)
    source: SearchSource | None = None  # None: the request mode's search
    rescore_each: bool = False  # each query's list gets the offline rescoring by its own text (steps)
    candidates: list[Candidate] | None = None  # search results before expansion (staged path)
    rows: list[Row] | None = None  # expansion rows: one per seed, with its deps
    tools: list[ToolHit] = field(default_factory=list)
    stages: list[StageInfo] = field(default_factory=list)
    timing_ms: dict[str, float] = field(default_factory=dict)
    embeddings: dict[str, list[float]] = field(default_factory=dict)
    llm_calls: int = 0

    def note(self, name: str, detail: str = "", fallback: bool = False) -> None:
        self.stages.append(StageInfo(name=name, detail=detail, fallback=fallback))


@dataclass
class PipelineEnv:
    """What stages may use: the graph gateway, the embedder, settings, and optional components."""

    graph: Graph
    embedder: Embedder
    settings: Settings
    components: dict[str, Any] = field(default_factory=dict)  # e.g. rerankers, LLM client (created lazily)
    seed_cache: SeedCache | None = None  # the default path's seed rows between requests (None = off)

    def embed(self, ctx: RetrievalContext, text: str) -> list[float]:
        if text not in ctx.embeddings:
            t0 = time.perf_counter()
            with span("embed"):
                ctx.embeddings[text] = self.embedder.embed_query(text)
            ctx.timing_ms["embed"] = ctx.timing_ms.get("embed", 0.0) + (time.perf_counter() - t0) * 1000
        return ctx.embeddings[text]

    def run_query(self, cypher: str, params: dict | None = None, **kwargs: Any) -> list[dict]:
        """A read through the graph gateway (managed read transaction, retried when the driver can).
        Retrieval queries return maps, lists and scalars only (no nodes): rows need no conversion.
        Recorded for `kg-tools retrieve --cypher` while a recording is active (recording.py)."""
        params = {**(params or {}), **kwargs}
        record(cypher, params)
        return self.graph.read_plain(cypher, params)

    def run_query_versioned(self, cypher: str, params: dict) -> tuple[list[dict], str]:
        """As run_query, plus the graph version the read saw (Graph.read_plain_versioned)."""
        record(cypher, params)
        return self.graph.read_plain_versioned(cypher, params)

    def search_params(self, ctx: RetrievalContext, text: str, k: int) -> dict:
        req = ctx.request
        return queries.search_params(
            req.mode,
            k=k,
            text=text,
            catalogs=req.scope,
            alpha=req.alpha,
            embedding=self.embed(ctx, text) if req.mode != "fulltext" else None,
        )

    def expansion(self, request: RetrievalRequest) -> DependencyExpansion:
        """The request's dependency expansion, reading through this environment."""
        return DependencyExpansion.of_request(request, self.run_query, self.run_query_versioned)


class Stage(ABC):
    """One step of the pipeline."""

    name: str = "stage"

    def __init__(self, env: PipelineEnv):
        self.env = env

    @abstractmethod
    def run(self, ctx: RetrievalContext) -> None: ...
