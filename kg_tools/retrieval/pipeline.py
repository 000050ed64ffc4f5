"""The retrieval pipeline: transform -> search -> rerank -> expand -> order/truncate.

`Pipeline.retrieve()` is the one public entry (template method): it plans the stages for a
request, runs each (timed), and formats typed results. Every stage is a small class with
`run(ctx)`; extra stages plug in by name through `register_stage`.
"""

from __future__ import annotations

import json
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from kg_tools.embeddings import Embedder
from kg_tools.errors import UnknownStageError
from kg_tools.graph import Graph
from kg_tools.retrieval import expansion as expansion_module
from kg_tools.retrieval import ordering, queries, recording
from kg_tools.retrieval.functions import openai_function
from kg_tools.retrieval.queries import MIN_CANDIDATES
from kg_tools.retrieval.query_text import clean_query
from kg_tools.retrieval.recording import record
from kg_tools.retrieval.request import MAX_K, RetrievalRequest, RetrievalResponse, StageInfo, ToolHit, Via
from kg_tools.retrieval.seed_cache import SeedCache
from kg_tools.retrieval.stages.fusion import fuse
from kg_tools.retrieval.stages.split import split_request
from kg_tools.retrieval.supplied import supplied_parameter_patterns
from kg_tools.settings import Settings


@dataclass
class Candidate:
    name: str
    score: float | None
    description: str = ""
    spec: str | None = None


@dataclass
class RetrievalContext:
    """Everything a request accumulates on its way through the stages."""

    request: RetrievalRequest
    queries: list[str] = field(default_factory=list)  # search queries (after any transformation)
    candidates: list[Candidate] | None = None  # search results before expansion (split path)
    rows: list[dict] | None = None  # expansion rows: one per seed, with its deps
    tools: list[ToolHit] = field(default_factory=list)
    stages: list[StageInfo] = field(default_factory=list)
    timing_ms: dict[str, float] = field(default_factory=dict)
    embeddings: dict[str, list[float]] = field(default_factory=dict)
    llm_calls: int = 0
    options: dict = field(default_factory=dict)  # set by transform stages: fusion, enriched, ...

    def note(self, name: str, detail: str = "", fallback: bool = False) -> None:
        self.stages.append(StageInfo(name=name, detail=detail, fallback=fallback))


@dataclass
class PipelineEnv:
    """What stages may use: the graph gateway, the embedder, settings, and optional components."""

    graph: Graph
    embedder: Embedder
    settings: Settings
    components: dict = field(default_factory=dict)  # e.g. rerankers, LLM client (created lazily)
    seed_cache: SeedCache | None = None  # the default path's seed rows between requests (None = off)

    def embed(self, ctx: RetrievalContext, text: str) -> list[float]:
        if text not in ctx.embeddings:
            t0 = time.perf_counter()
            ctx.embeddings[text] = self.embedder.embed_query(text)
            ctx.timing_ms["embed"] = ctx.timing_ms.get("embed", 0.0) + (time.perf_counter() - t0) * 1000
        return ctx.embeddings[text]

    def run_query(self, cypher: str, params: dict | None = None, **kwargs) -> list[dict]:
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
            catalog=req.catalog,
            alpha=req.alpha,
            embedding=self.embed(ctx, text) if req.mode != "fulltext" else None,
        )

    def expand_params(self, ctx: RetrievalContext) -> dict:
        req = ctx.request
        return queries.expand_params(
            edge_types=[t.value for t in req.edge_types] if req.edge_types else None,
            prefer_direct=req.prefer_direct,
            drop_parameter_patterns=supplied_parameter_patterns(req.query) if req.skip_supplied_parameters else [],
            d_limit=req.d_limit or req.K,
        )


class Stage(ABC):
    """One step of the pipeline."""

    name: str = "stage"

    def __init__(self, env: PipelineEnv):
        self.env = env

    @abstractmethod
    def run(self, ctx: RetrievalContext) -> None: ...


# -- the built-in stages --------------------------------------------------------------------


def rescores_seeds(request: RetrievalRequest) -> bool:
    """The offline seed rescoring (kg_tools/retrieval/ordering.py) applies: rerank offline, vector mode."""
    return request.rerank == "offline" and request.mode == "vector"


def expand_rows(env: PipelineEnv, depth: int, expansion: dict, cypher: str, params: dict) -> list[dict]:
    """Run an expansion query; rows the closure did not answer are ordered in Python (expansion.py)."""
    return expansion_module.complete(env.run_query(cypher, params), depth, expansion, env.run_query)


def expand_rows_versioned(
    env: PipelineEnv, depth: int, expansion: dict, cypher: str, params: dict
) -> tuple[list[dict], str]:
    """expand_rows, plus the graph version the query saw (for the seed cache)."""
    rows, version = env.run_query_versioned(cypher, params)
    return expansion_module.complete(rows, depth, expansion, env.run_query), version


def fill_pool(req: RetrievalRequest) -> int:
    """How many search candidates the default path expands: k (at least SEED_POOL when rescoring),
    and at least K so that the next seeds can fill K when seeds and dependencies give fewer tools."""
    return max(req.k, ordering.SEED_POOL if rescores_seeds(req) else 0, min(req.K, MAX_K))


class SearchAndExpand(Stage):
    """Default path, one round trip: search -> canonical seeds -> dependency expansion. With the
    offline rescoring the first SEED_POOL candidates are expanded; OrderAndTruncate keeps k. With
    the seed cache (seed_cache.py) the seeds' rows may come from memory: only the search is sent,
    plus the expansion of candidates memory lacks; the rows are the same."""

    name = "search+expand"

    def run(self, ctx):
        req = ctx.request
        pool = fill_pool(req)
        search, expansion = self.env.search_params(ctx, ctx.queries[0], pool), self.env.expand_params(ctx)
        cache = self.env.seed_cache
        if cache is None or not queries.uses_closure(req.depth, expansion) or recording.active():
            ctx.rows = expand_rows(
                self.env, req.depth, expansion, *queries.search_expand(req.mode, req.depth, search, expansion)
            )
        elif cache.prefer_light():
            ctx.rows = self._light(cache, req, search, expansion)
        else:
            since = cache.last_seen
            rows, version = expand_rows_versioned(
                self.env, req.depth, expansion, *queries.search_expand(req.mode, req.depth, search, expansion)
            )
            cache.observe(version)
            cache.lookup(version, [r["name"] for r in rows], expansion["d_limit"])  # the hit rate
            cache.store(since, version, rows, expansion["d_limit"])
            ctx.rows = rows
        ctx.options["rescore_seeds"] = rescores_seeds(req)  # done over the rows by OrderAndTruncate
        ctx.note("search", f"{req.mode} top-{pool}")
        ctx.note("expand", f"depth {req.depth}" + (f", d_limit {req.d_limit}" if req.d_limit else ""))

    def _light(self, cache: SeedCache, req, search: dict, expansion: dict) -> list[dict]:
        """The search alone, the seeds' rows from the cache; unknown seeds expanded by a second query.
        The rows are those of the full query (seed_cache.py)."""
        seeds, version = self.env.run_query_versioned(*queries.search_seeds(req.mode, search))
        cache.observe(version)
        d_limit = expansion["d_limit"]
        known = cache.lookup(version, [s["name"] for s in seeds], d_limit)
        missing = [{"name": s["name"], "score": s["score"]} for s, row in zip(seeds, known) if row is None]
        fetched: dict[str, dict] = {}
        if missing:
            rows, after = expand_rows_versioned(
                self.env, req.depth, expansion, *queries.expand(req.depth, missing, expansion)
            )
            cache.observe(after)
            cache.store(version, after, rows, d_limit)
            fetched = {r["name"]: r for r in rows}
        out = []
        for seed, row in zip(seeds, known):
            row = row or fetched.get(seed["name"])
            if row is not None:  # (a seed deleted between the two queries is left out)
                out.append(
                    {
                        "rank": len(out),
                        "name": row["name"],
                        "func_type": row["func_type"],
                        "spec": row["spec"],
                        "score": seed["score"],
                        "members": row["members"],
                        "deps": row["deps"],
                    }
                )
        return out


class Search(Stage):
    """Search for each query; several queries are fused (ctx.options["fusion"]: toolscope | rrf | max)."""

    name = "search"

    def __init__(self, env, pool: int):
        super().__init__(env)
        self.pool = pool

    def run(self, ctx):
        req = ctx.request
        cypher = ctx.options.get("search_cypher") or queries.search_query(req.mode, req.catalog is not None)
        extra = ctx.options.get("search_params", {})
        fusion = ctx.options.get("fusion", "toolscope")
        # candidates enough to fill K (OrderAndTruncate); several queries fused by score keep their
        # pool (min-max normalisation depends on the list length)
        pool = self.pool if len(ctx.queries) > 1 and fusion != "round-robin" else max(self.pool, min(req.K, MAX_K))
        ranked = []
        for text in ctx.queries:
            rows = self.env.run_query(cypher, **self.env.search_params(ctx, text, pool), **extra)
            ranked.append([Candidate(r["name"], r["score"], r["description"] or "", r["spec"]) for r in rows])
            if ctx.options.get("rescore_each"):  # the offline rescoring of each list by its own text (steps)
                ranked[-1] = rescored_candidates(text, ranked[-1])
        ctx.candidates = ranked[0] if len(ranked) == 1 else fuse(fusion, ranked)
        detail = f"{req.mode} top-{pool} over {len(ctx.queries)} quer{'y' if len(ctx.queries) == 1 else 'ies'}"
        ctx.note("search", detail + (f", {fusion} fusion" if len(ranked) > 1 else ""))


def rescored_candidates(text: str, candidates: list[Candidate]) -> list[Candidate]:
    """The offline seed rescoring (ordering.rescore) of the first SEED_POOL candidates for `text`."""
    if len(candidates) < 2:
        return candidates
    head, tail = candidates[: ordering.SEED_POOL], candidates[ordering.SEED_POOL :]
    rescored = ordering.rescore(text, head, lambda c: c.name, lambda c: c.score or 0.0, lambda c: c.spec)
    return [Candidate(c.name, round(score, 6), c.description, c.spec) for score, c in rescored] + tail


class Expand(Stage):
    """Dependency expansion of the first k candidates, in their order."""

    name = "expand"

    def run(self, ctx):
        req = ctx.request
        # the first k candidates are the seeds; the next ones (up to K) fill K when needed (OrderAndTruncate)
        seeds = [{"name": c.name, "score": c.score} for c in (ctx.candidates or [])[: max(req.k, min(req.K, MAX_K))]]
        expansion = self.env.expand_params(ctx)
        ctx.rows = (
            expand_rows(self.env, req.depth, expansion, *queries.expand(req.depth, seeds, expansion)) if seeds else []
        )
        ctx.note("expand", f"depth {req.depth}" + (f", d_limit {req.d_limit}" if req.d_limit else ""))


class OrderAndTruncate(Stage):
    """seed 1, its dependencies, seed 2, its dependencies, ... unique, cut to K. On the default path
    (SearchAndExpand asks for it) the first SEED_POOL rows are rescored (ordering.rescore) and the
    best k are the seeds, whatever k is, as the staged rerank-offline does; supplied-value
    dependencies go last within their seed (ordering.supplied_last). K is a budget: when the k seeds
    and their dependencies give fewer than K tools, the next rows (in order) fill it, each with its
    dependencies; `stages` says so (`fill`)."""

    name = "order"

    def run(self, ctx):
        req = ctx.request
        rows = ctx.rows or []
        if ctx.options.get("rescore_seeds") and len(rows) >= 2:
            head, tail = rows[: ordering.SEED_POOL], rows[ordering.SEED_POOL :]
            rescored = ordering.rescore(req.query, head, lambda r: r["name"], lambda r: r["score"], lambda r: r["spec"])
            rows = [{**row, "score": round(score, 6)} for score, row in rescored] + tail
            ctx.note(
                "rerank-offline",
                f"top {len(head)} rescored (location level, supplied values, name words), {min(req.k, len(rows))} kept",
            )
        seen: set[str] = set()
        tools: list[ToolHit] = []
        seeds, spare = rows[: req.k], rows[req.k :]
        for row in seeds:
            self._add(row, req, seen, tools)
        filled_from = len(tools)
        used = 0
        for row in spare:
            if len(tools) >= req.K:
                break
            if row["name"] in seen and all(d["name"] in seen for d in row["deps"]):
                continue
            self._add(row, req, seen, tools)
            used += 1
        ctx.tools = tools
        if used:
            ctx.note(
                "fill",
                f"{req.k} seed(s) and their dependencies gave {filled_from} of K={req.K} tools: "
                f"the next {used} seed(s) filled it",
            )
        ctx.note("order", ("supplied values last, " if req.supplied_last else "") + f"unique, truncated to K={req.K}")

    @staticmethod
    def _add(row: dict, req: RetrievalRequest, seen: set[str], tools: list[ToolHit]) -> None:
        deps = ordering.supplied_last(row, req.query) if req.supplied_last else row["deps"]
        for entry, role, via in [(row, "seed", None)] + [(d, "dependency", d["via"]) for d in deps]:
            if len(tools) >= req.K:
                return
            if entry["name"] in seen:
                continue
            seen.add(entry["name"])
            spec, function = parsed_spec(entry["spec"]) if entry.get("spec") else _bare_spec(entry["name"])
            tools.append(
                ToolHit(
                    name=entry["name"],
                    kind="core" if entry.get("func_type") == "core" else "regular",
                    role=role,
                    score=row["score"] if role == "seed" else None,
                    via=[Via.model_validate(via)] if via else [],
                    members=sorted(entry.get("members") or []),
                    spec=spec,
                    function=function,
                )
            )


@lru_cache(maxsize=8192)
def parsed_spec(text: str) -> tuple[dict, dict]:
    """A stored spec text -> (spec, OpenAI function), parsed once per text: the same tools recur
    across requests. ToolHit copies both dicts; what they contain is shared, so it is read-only."""
    spec = json.loads(text)
    return spec, openai_function(spec)


def _bare_spec(name: str) -> tuple[dict, dict]:
    spec = {"name": name}
    return spec, openai_function(spec)


# -- pluggable stages -----------------------------------------------------------------------

# name -> (phase, factory). Phases: "transform" (before search), "post-search" (after search,
# e.g. rerank), "post-expand" (after ordering). Extra stages register here.
STAGES: dict[str, tuple[str, Callable[[PipelineEnv], Stage]]] = {}
PHASES = ("transform", "post-search", "post-expand")


def register_stage(name: str, phase: str, factory: Callable[[PipelineEnv], Stage]) -> None:
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {PHASES}")
    STAGES[name] = (phase, factory)


_SENTENCES = re.compile(r"[.!?;]\s+\S")  # split_steps applies to one-sentence requests only
_MAY_SPLIT = re.compile(r"[.!?;,]\s|\b(?:and|then|after|also|afterwards)\b", re.I)  # cheap test before split_request


class Pipeline:
    """Graph RAG-Tool Fusion over Neo4j."""

    def __init__(self, graph: Graph, embedder: Embedder, settings: Settings, **components):
        size = getattr(settings, "retrieval_cache_size", 0)
        self.env = PipelineEnv(graph, embedder, settings, dict(components), SeedCache(size) if size > 0 else None)

    def warm_up(self) -> int:
        """Before serving: one default retrieval so Neo4j plans and caches the query (a cold plan
        costs ~1.5 s), then warm_seed_cache. Never raises: a graph that is down or empty is left to
        the first requests (and /readyz) to report. Returns the seed rows stored."""
        try:
            self.retrieve(RetrievalRequest(query="warm up"))
            return self.warm_seed_cache()
        except Exception:  # noqa: BLE001 - a server must start whatever state the graph is in
            return 0

    def warm_seed_cache(self, chunk: int = 256) -> int:
        """Fill the seed cache with the default request's row of every tool that can be a seed, so
        the first requests after a start already send only the search. Done only when all of them
        fit in the cache (a larger catalog is left to the requests); stops at a concurrent write
        (the rows of another graph version are of no use). Returns the rows stored."""
        cache = self.env.seed_cache
        request = RetrievalRequest(query="warm up")
        expansion = self.env.expand_params(RetrievalContext(request=request, queries=[request.query]))
        if cache is None or not queries.uses_closure(request.depth, expansion):
            return 0
        names, version = self.env.run_query_versioned(*queries.seed_cache_candidates(cache.size + 1))
        if len(names) > cache.size:
            return 0
        cache.observe(version)
        stored = 0
        for start in range(0, len(names), chunk):
            seeds = [{"name": r["name"], "score": 0.0} for r in names[start : start + chunk]]
            rows, after = expand_rows_versioned(
                self.env, request.depth, expansion, *queries.expand(request.depth, seeds, expansion)
            )
            cache.observe(after)
            if after != version:
                break
            cache.store(version, after, rows, expansion["d_limit"])
            stored += len(rows)
        return stored

    def plan(self, request: RetrievalRequest) -> list[Stage]:
        unknown = [s for s in [*request.stages, *self._rerankers(request)] if s not in STAGES]
        if unknown:
            raise UnknownStageError(
                f"unknown stage(s): {', '.join(unknown)}; available: {', '.join(sorted(STAGES)) or 'none'}"
            )
        names = [*request.stages, *(["steps"] if self._splits(request) else [])]
        extra = {phase: [STAGES[s][1](self.env) for s in names if STAGES[s][0] == phase] for phase in PHASES}
        late = [s for s in extra["post-search"] if getattr(s, "after_rerank", False)]  # e.g. self-check
        post_search = [s for s in extra["post-search"] if s not in late] + late
        if not extra["transform"] and not post_search and not self._rerankers(request):
            # the default: one round trip; the offline rescoring runs over the rows in OrderAndTruncate
            return [SearchAndExpand(self.env), OrderAndTruncate(self.env), *extra["post-expand"]]
        offline = rescores_seeds(request) and not extra["transform"] and "rerank-offline" not in request.stages
        reranker = [STAGES[s][1](self.env) for s in self._rerankers(request) + (["rerank-offline"] if offline else [])]
        post_search = [s for s in extra["post-search"] if s not in late] + reranker + late
        pool = max(request.k, MIN_CANDIDATES if post_search else request.k)
        return [
            *extra["transform"],
            Search(self.env, pool),
            *post_search,
            Expand(self.env),
            OrderAndTruncate(self.env),
            *extra["post-expand"],
        ]

    @staticmethod
    def _splits(request: RetrievalRequest) -> bool:
        """split_steps applies: no transform stage asked for, and the request names several steps."""
        if not request.split_steps or "steps" not in STAGES:
            return False
        if any(STAGES[s][0] == "transform" for s in request.stages):
            return False
        if _SENTENCES.search(request.query):  # several sentences: mostly one goal told at length (ToolLinkOS dev)
            return False
        return bool(_MAY_SPLIT.search(request.query)) and len(split_request(request.query, 2)) > 1

    @staticmethod
    def _rerankers(request: RetrievalRequest) -> list[str]:
        """Reranker stages named by `rerank` ("offline" is built in: see plan)."""
        return [] if request.rerank in ("none", "offline") else [f"rerank-{request.rerank}"]

    def retrieve(self, request: RetrievalRequest) -> RetrievalResponse:
        t_start = time.perf_counter()
        cleaned = clean_query(request.query)
        if cleaned.detail:  # a long message: the cleaned, bounded text is what every stage sees
            request = request.model_copy(update={"query": cleaned.text})
        ctx = RetrievalContext(request=request, queries=[request.query])
        if cleaned.detail:
            ctx.note("clean", cleaned.detail)
        for stage in self.plan(request):
            t0 = time.perf_counter()
            stage.run(ctx)
            key = stage.name
            ctx.timing_ms[key] = round(ctx.timing_ms.get(key, 0.0) + (time.perf_counter() - t0) * 1000, 3)
        ctx.timing_ms["embed"] = round(ctx.timing_ms.get("embed", 0.0), 3)
        ctx.timing_ms["total"] = round((time.perf_counter() - t_start) * 1000, 3)
        return RetrievalResponse(tools=ctx.tools, stages=ctx.stages, timing_ms=ctx.timing_ms)
