"""The search and expansion stages: `Search` (with the expansion in the same round trip when the plan
lets it) and `Expand`."""

from __future__ import annotations

from dataclasses import replace

from kg_tools.retrieval import ordering, queries, recording
from kg_tools.retrieval.context import Candidate, PipelineEnv, RetrievalContext, Stage
from kg_tools.retrieval.expansion import DependencyExpansion, Row
from kg_tools.retrieval.hit_index import boost_seeds
from kg_tools.retrieval.request import MAX_K, RetrievalRequest, tool_key
from kg_tools.retrieval.seed_cache import SeedCache
from kg_tools.retrieval.stages.fusion import by_step, fuse
from kg_tools.retrieval.stages.server_score import blended_by_text


def _key(row: Row) -> tuple[str, str]:
    """A row's tool (request.tool_key)."""
    return tool_key(row["name"], row.get("catalog"))


def rescores_seeds(request: RetrievalRequest) -> bool:
    """The offline seed rescoring (kg_tools/retrieval/ordering.py) applies: rerank offline, and a search whose
    scores are vector scores (vector, hybrid-boost)."""
    return request.rerank == "offline" and request.mode in ("vector", "hybrid-boost")


def fill_pool(req: RetrievalRequest) -> int:
    """How many search candidates are expanded, on the default and the staged path alike: k, at least
    SEED_POOL (the offline rescoring's pool, or its fallback's), and at least K so that the next seeds
    can fill K when seeds and dependencies give fewer tools."""
    return max(req.k, ordering.SEED_POOL, min(req.K, MAX_K))


def expansion_detail(req: RetrievalRequest) -> str:
    return f"depth {req.depth}" + (f", d_limit {req.d_limit}" if req.d_limit else "")


class Search(Stage):
    """Search for each query; several queries are fused (ctx.fusion: toolscope | rrf | max | round-robin).

    The query builder's one optimisation (`expand=True`, chosen by the plan when no stage between the
    search and the expansion needs more than the rows the expansion gets): the search and the
    dependency expansion of its first fill_pool() rows go in one round trip (`search+expand`), or, with
    the seed cache (seed_cache.py), the search alone with the seeds' rows from memory plus the
    expansion of those memory lacks; the rows are the same."""

    reads = frozenset({"request", "queries", "fusion", "source", "rescore_each", "per_step"})
    writes = frozenset({"candidates", "seeds", "graph_version"})

    def __init__(self, env: PipelineEnv, pool: int, expand: bool = False):
        super().__init__(env)
        self.pool = pool
        self.expand = expand
        self.name = "search+expand" if expand else "search"

    def run(self, ctx: RetrievalContext) -> None:
        if self.expand:
            self._search_and_expand(ctx)
        else:
            self._search(ctx)

    def _search(self, ctx: RetrievalContext) -> None:
        req = ctx.request
        source = ctx.source
        cypher = source.cypher if source else queries.search_query(req.mode, req.scope is not None)
        extra = source.params if source else {}
        # candidates enough to fill K (OrderAndTruncate); several queries fused by score keep their
        # pool (min-max normalisation depends on the list length)
        multiple = len(ctx.queries) > 1 and ctx.fusion != "round-robin"
        pool = self.pool if multiple else max(self.pool, fill_pool(req))
        ranked = []
        for text in ctx.queries:
            rows, version = self.env.run_query_versioned(cypher, {**self.env.search_params(ctx, text, pool), **extra})
            ctx.graph_version = ctx.graph_version or version  # the first search's (server_index.py)
            ranked.append(
                [
                    Candidate(r["name"], r["score"], r["description"] or "", r["spec"], catalog=r.get("catalog"))
                    for r in rows
                ]
            )
            if ctx.rescore_each and len(ranked[-1]) >= 2:  # each list rescored offline by its own text (steps)
                ranked[-1] = ordering.rescored(text, blended_by_text(self.env, ctx, text, ranked[-1]))
        if ctx.per_step and len(ranked) > 1:  # each step's top k are seeds, round-robin (per_step.py)
            ctx.candidates, ctx.seeds = by_step(ranked), req.k * len(ranked)
        else:
            ctx.candidates = ranked[0] if len(ranked) == 1 else fuse(ctx.fusion, ranked)
        detail = f"{req.mode} top-{pool} over {len(ctx.queries)} quer{'y' if len(ctx.queries) == 1 else 'ies'}"
        ctx.note("search", detail + (f", {ctx.fusion} fusion" if len(ranked) > 1 else ""))

    def _search_and_expand(self, ctx: RetrievalContext) -> None:
        req = ctx.request
        pool = fill_pool(req)
        search, expansion = self.env.search_params(ctx, ctx.queries[0], pool), self.env.expansion(req)
        cache = self.env.seed_cache
        if cache is None or not expansion.from_closure or recording.active():
            rows, ctx.graph_version = expansion.with_search_versioned(req.mode, search)
        elif cache.prefer_light():
            rows, ctx.graph_version = self._light(cache, req, search, expansion)
        else:
            since = cache.last_seen
            rows, version = expansion.with_search_versioned(req.mode, search)
            ctx.graph_version = version
            cache.observe(version)
            cache.lookup(version, [_key(r) for r in rows], expansion.d_limit)  # the hit rate
            cache.store(since, version, rows, expansion.d_limit)
        ctx.candidates = [Candidate.of_row(r) for r in rows]
        ctx.note("search", f"{req.mode} top-{pool}")
        ctx.note("expand", expansion_detail(req))

    def _light(
        self, cache: SeedCache, req: RetrievalRequest, search: dict, expansion: DependencyExpansion
    ) -> tuple[list[Row], str]:
        """The search alone, the seeds' rows from the cache; unknown seeds expanded by a second query.
        The rows are those of the full query (seed_cache.py); with the graph version the search saw."""
        seeds, version = self._light_seeds(req, search)
        cache.observe(version)
        d_limit = expansion.d_limit
        known = cache.lookup(version, [_key(s) for s in seeds], d_limit)
        missing = [
            {"name": s["name"], "catalog": s.get("catalog"), "score": s["score"]}
            for s, row in zip(seeds, known)
            if row is None
        ]
        fetched: dict[tuple[str, str], dict] = {}
        if missing:
            rows, after = expansion.of_seeds_versioned(missing)
            cache.observe(after)
            cache.store(version, after, rows, d_limit)
            fetched = {_key(r): r for r in rows}
        out: list[Row] = []
        for seed, cached in zip(seeds, known):
            row = cached or fetched.get(_key(seed))
            if row is not None:  # (a seed deleted between the two queries is left out)
                out.append({**row, "score": seed["score"]})
        return out, version

    def _light_seeds(self, req: RetrievalRequest, search: dict) -> tuple[list[dict], str]:
        """The search's seeds [{name, catalog, score}], best first, and the graph version it saw: for the
        default mode and scope the two index legs merged here (hit_index.py), else in Neo4j."""
        env, index = self.env, self.env.hit_index
        if index is None or req.mode != "hybrid-boost" or queries.scoped(search):
            return self._neo4j_seeds(req, search)
        if not index.too_large():
            rows, version = env.run_query_versioned(*queries.search_legs(search))
            seeds_of = env.seeds_of(version)
            seeds = boost_seeds(rows[0], seeds_of, search["boost"], search["k"]) if seeds_of is not None else None
            if seeds is not None:
                return seeds, version
        seeds, version = self._neo4j_seeds(req, search)
        if not index.knows(version):  # the graph was too large, or changed during the read: and now?
            env.seeds_of(version)
        return seeds, version

    def _neo4j_seeds(self, req: RetrievalRequest, search: dict) -> tuple[list[dict], str]:
        rows, version = self.env.run_query_versioned(*queries.search_seeds(req.mode, search))
        return rows[0]["seeds"], version


class Expand(Stage):
    """Dependency expansion of the first fill_pool() candidates, in their order: the first k are the
    seeds, the next ones fill K when needed (OrderAndTruncate); the rest are dropped."""

    name = "expand"
    reads = frozenset({"request", "candidates", "seeds"})
    writes = frozenset({"candidates"})

    def run(self, ctx: RetrievalContext) -> None:
        req = ctx.request
        head = (ctx.candidates or [])[: max(fill_pool(req), ctx.seeds or 0)]
        seeds = [{"name": c.name, "catalog": c.catalog, "score": c.score} for c in head]
        rows = self.env.expansion(req).of_seeds(seeds) if seeds else []
        steps = {c.key: c.step for c in head}
        ctx.candidates = [replace(Candidate.of_row(r), step=steps.get(_key(r))) for r in rows]
        ctx.note("expand", expansion_detail(req))
