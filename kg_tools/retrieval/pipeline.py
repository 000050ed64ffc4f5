"""The retrieval pipeline: transform -> search -> post-search (rerank) -> expand -> order/truncate.

`Pipeline.retrieve()` is the one public entry (template method): it plans the stages for a
request (plan.py lists them and builds the sequence), runs each (timed), and returns typed results.
"""

from __future__ import annotations

import time

from kg_tools.embedding_check import check_graph_model
from kg_tools.embeddings import Embedder
from kg_tools.graph import Graph
from kg_tools.retrieval import ordering, places, queries
from kg_tools.retrieval.context import PipelineEnv, RetrievalContext, Stage
from kg_tools.retrieval.hit_index import HitIndex
from kg_tools.retrieval.plan import build_plan
from kg_tools.retrieval.query_text import clean_query
from kg_tools.retrieval.request import RetrievalRequest, RetrievalResponse
from kg_tools.retrieval.seed_cache import SeedCache
from kg_tools.retrieval.stages.order import parsed_spec
from kg_tools.settings import Settings
from kg_tools.telemetry import span


class Pipeline:
    """Graph RAG-Tool Fusion over Neo4j."""

    def __init__(self, graph: Graph, embedder: Embedder, settings: Settings, **components: object):
        size = settings.retrieval_cache_size
        self.env = PipelineEnv(
            graph,
            embedder,
            settings,
            dict(components),
            SeedCache(size) if size > 0 else None,
            hit_index=HitIndex(size) if size > 0 else None,  # the seed cache's light path only
        )
        self._model_checked = False  # the graph's vectors are the embedder's (embedding_check.py), once found

    def warm_up(self) -> int:
        """Before serving: one default retrieval so Neo4j plans and caches the query (a cold plan
        costs ~1.5 s), the place gazetteers (places.load: ~1 s), then warm_seed_cache. Never raises: a graph that is down or empty is left to
        the first requests (and /readyz) to report. Returns the seed rows stored."""
        try:
            self.retrieve(RetrievalRequest(query="warm up"))
            places.load()
            return self.warm_seed_cache()
        except Exception:  # noqa: BLE001 - a server must start whatever state the graph is in
            return 0

    def warm_seed_cache(self, chunk: int = 256) -> int:
        """Fill the seed cache with the default request's row of every tool that can be a seed, so
        the first requests after a start already send only the search. Done only when all of them
        fit in the cache (a larger catalog is left to the requests); stops at a concurrent write
        (the rows of another graph version are of no use). The specs of the rows' tools are parsed
        for the ordering at the same time (_parse_specs). Returns the rows stored."""
        cache = self.env.seed_cache
        expansion = self.env.expansion(RetrievalRequest(query="warm up"))
        if cache is None or not expansion.from_closure:
            return 0
        names, version = self.env.run_query_versioned(*queries.seed_cache_candidates(cache.size + 1))
        if len(names) > cache.size:
            return 0
        cache.observe(version)
        self.env.servers(version)  # the server-score stage's servers of this version (server_index.py)
        self.env.seeds_of(version)  # the light search's canonical seeds of this version (hit_index.py)
        stored = 0
        for start in range(0, len(names), chunk):
            seeds = [{"name": r["name"], "catalog": r["catalog"], "score": 0.0} for r in names[start : start + chunk]]
            rows, after = expansion.of_seeds_versioned(seeds)
            cache.observe(after)
            if after != version:
                break
            cache.store(version, after, rows, expansion.d_limit)
            stored += len(rows)
            _parse_specs(rows)
        return stored

    def plan(self, request: RetrievalRequest) -> list[Stage]:
        return build_plan(request, self.env)

    def retrieve(self, request: RetrievalRequest) -> RetrievalResponse:
        """One request; an OpenTelemetry span `retrieve` with one child span per stage (and `embed`)."""
        with span("retrieve", {"kg_tools.k": request.k, "kg_tools.K": request.K}):
            return self._retrieve(request)

    def _retrieve(self, request: RetrievalRequest) -> RetrievalResponse:
        t_start = time.perf_counter()
        if not self._model_checked:  # until the graph holds vectors, all of the configured model
            self._model_checked = check_graph_model(self.env.graph, self.env.embedder.name)
        cleaned = clean_query(request.query)
        if cleaned.detail:  # a long message: the cleaned, bounded text is what every stage sees
            request = request.model_copy(update={"query": cleaned.text})
        ctx = RetrievalContext(request=request, queries=[request.query], fusion=request.fusion or "toolscope")
        if cleaned.detail:
            ctx.note("clean", cleaned.detail)
        for stage in self.plan(request):
            t0 = time.perf_counter()
            with span(stage.name):
                stage.run(ctx)
            key = stage.timing_key
            ctx.timing_ms[key] = round(ctx.timing_ms.get(key, 0.0) + (time.perf_counter() - t0) * 1000, 3)
        ctx.timing_ms["embed"] = round(ctx.timing_ms.get("embed", 0.0), 3)
        ctx.timing_ms["total"] = round((time.perf_counter() - t_start) * 1000, 3)
        return RetrievalResponse(tools=ctx.tools, stages=ctx.stages, timing_ms=ctx.timing_ms)


def _parse_specs(rows: list[dict]) -> None:
    """Fill the per-tool caches of the ordering for every tool in the rows, seeds and dependencies
    (ordering.prepare, order.parsed_spec), so that no request pays for them the first time it meets a
    tool (~600 spec parses in the first 300 ToolLinkOS requests otherwise)."""
    for row in rows:
        for entry in [row, *(row.get("deps") or [])]:
            ordering.prepare(entry["name"], entry.get("spec"))
            if entry.get("spec"):
                parsed_spec(entry["spec"])
