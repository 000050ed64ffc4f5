"""What the retrieval stages share: the one row type (`Candidate`), the typed state a request accumulates
(`RetrievalContext`), what stages may use (`PipelineEnv`) and the `Stage` interface, which declares the
context fields a stage reads and writes. The plan (plan.py) lists the stages."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kg_tools.cypher import query
from kg_tools.embeddings import Embedder
from kg_tools.graph import Graph
from kg_tools.retrieval import queries
from kg_tools.retrieval.expansion import DependencyExpansion, Row
from kg_tools.retrieval.hit_index import HitIndex, SeedsOf
from kg_tools.retrieval.recording import record
from kg_tools.retrieval.relevance import ToolVectors
from kg_tools.retrieval.request import FusionMode, RetrievalRequest, StageInfo, ToolHit, tool_key
from kg_tools.retrieval.seed_cache import SeedCache
from kg_tools.retrieval.server_index import ServerIndex, Servers
from kg_tools.settings import Settings
from kg_tools.telemetry import span

Fusion = FusionMode


@dataclass
class Candidate:
    """One tool on its way through the stages: a search result, then (expanded) a seed with its
    dependencies in depth-first order. Every post-search stage and the ordering read this one type."""

    name: str
    score: float | None
    description: str = ""
    spec: str | None = None  # the stored spec (JSON text)
    func_type: str | None = None  # core | regular (set by the expansion)
    members: list[str] = field(default_factory=list)  # merged tools this canonical tool stands for
    deps: list[dict] | None = None  # None until expanded
    step: int | None = None  # the request's step it serves (per-step retrieval), 1-based
    catalog: str | None = None  # a tool is (catalog, name): several catalogs may hold a name

    @property
    def key(self) -> tuple[str, str]:
        """Its identity among the candidates (request.tool_key)."""
        return tool_key(self.name, self.catalog)

    def with_score(self, score: float | None) -> Candidate:
        """A copy with another score (dataclasses.replace(self, score=score), ~4x faster: per request the
        rescoring copies 15 rows)."""
        return Candidate(
            self.name,
            score,
            self.description,
            self.spec,
            self.func_type,
            self.members,
            self.deps,
            self.step,
            self.catalog,
        )

    @classmethod
    def of_row(cls, row: Row, description: str = "") -> Candidate:
        """An expansion row (cypher/expand*.cypher, the seed cache) as a candidate."""
        return cls(
            row["name"],
            row["score"],
            description,
            row.get("spec"),
            row.get("func_type"),
            row.get("members") or [],
            row.get("deps") or [],
            catalog=row.get("catalog"),
        )


@dataclass(frozen=True)
class SearchSource:
    """Another search than the request mode's (e.g. `enriched`): its Cypher and extra parameters."""

    cypher: str
    params: dict[str, Any]


@dataclass
class RetrievalContext:
    """Everything a request accumulates on its way through the stages. Transform stages set the
    search's inputs (queries, fusion, source, rescore_each); Search sets `candidates`, post-search
    stages reorder them, Expand gives them their dependencies; OrderAndTruncate sets `tools`. Each
    stage declares the fields it reads and writes (`Stage.reads`, `Stage.writes`; plan.unmet_reads)."""

    request: RetrievalRequest
    queries: list[str] = field(default_factory=list)  # search queries (after any transformation)
    fusion: Fusion = "toolscope"  # how several queries' lists are fused (the request's `fusion`, or steps)
    source: SearchSource | None = None  # None: the request mode's search
    rescore_each: bool = False  # each query's list gets the offline rescoring by its own text (steps)
    per_step: bool = False  # the queries are the request's steps, each searched with its own k (per-step)
    seeds: int | None = None  # how many candidates are seeds (None: the request's k)
    candidates: list[Candidate] | None = None  # the search's rows, best first; expanded by Expand
    graph_version: str | None = None  # the graph version the search saw (Graph.read_plain_versioned)
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
    server_index: ServerIndex = field(default_factory=ServerIndex)  # (:Server) embeddings per graph version
    hit_index: HitIndex | None = None  # the light path's canonical seeds per graph version (None = off)
    tool_vectors: ToolVectors = field(default_factory=ToolVectors)  # tool vectors per graph version (relevance.py)

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

    def servers(self, version: str | None) -> Servers:
        """The (:Server) nodes at graph `version` (server_index.py: read once per version). Not recorded for
        `retrieve --cypher`: like the seed cache's rows it is memory of the graph, not the request's query."""
        return self.server_index.servers(version, lambda: self.graph.read_plain_versioned(query("server_index")))

    def seeds_of(self, version: str) -> SeedsOf | None:
        """Each tool's seeds at graph `version` (hit_index.py: read once per version), None when unknown. Not
        recorded for `retrieve --cypher`: memory of the graph, as the seed cache's rows."""
        if self.hit_index is None:
            return None
        return self.hit_index.seeds_of(
            version, lambda limit: self.graph.read_plain_versioned(*queries.hit_seeds(limit))
        )

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


# What a request's context holds before any stage ran (RetrievalContext's fields with their defaults).
INITIAL_FIELDS = frozenset({"request", "queries", "fusion", "source", "rescore_each", "per_step", "seeds"})


class Stage(ABC):
    """One step of the pipeline. `reads` and `writes` name the RetrievalContext fields it uses and
    sets (every stage may add to `stages`, `timing_ms`, `embeddings` and `llm_calls`)."""

    name: str = "stage"
    reads: ClassVar[frozenset[str]] = frozenset({"request"})
    writes: ClassVar[frozenset[str]] = frozenset()
    # A post-search stage that needs only the rows the expansion gets (not the search's whole pool),
    # so that it may run on rows the search expanded in the same round trip.
    on_expanded_rows: bool = False
    expanded: bool = False  # set by the plan: this stage runs on the rows of a one-round-trip search

    def __init__(self, env: PipelineEnv):
        self.env = env

    @property
    def timing_key(self) -> str:
        """The `timing_ms` entry this stage's time is added to."""
        return self.name

    @abstractmethod
    def run(self, ctx: RetrievalContext) -> None: ...
