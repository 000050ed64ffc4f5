"""Query transformation (transform phase, before search): rewrite, decomposition into sub-requests
(RPS: the decomposer sees the M nearest tools), multi-query expansion. How the resulting lists are fused is
the request's `fusion` (ToolScope by default; round-robin for steps).

The original request always stays the first search query when a stage adds sub-requests, so its
top-1 leads the ToolScope fusion; the LLM-less paths are labelled `offline` with fallback=true."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from kg_tools.retrieval import queries as retrieval_queries
from kg_tools.retrieval.context import Candidate, Stage
from kg_tools.retrieval.stages.llm_call import NO_LLM, LLMFallback, ask, candidate_lines, llm_client
from kg_tools.retrieval.stages.search import rescores_seeds
from kg_tools.retrieval.stages.split import split_request

DECOMPOSE_CONTEXT_TOOLS = 15  # RPS: M nearest tools shown to the decomposer
MAX_SUBREQUESTS = 5
MULTI_QUERY_VARIANTS = 3


class RewrittenQuery(BaseModel):
    model_config = ConfigDict(extra="forbid")
    query: str = Field(description="The request rewritten as a clear, self-contained search query.")


class SubRequests(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sub_requests: list[str] = Field(description="One short search query per distinct capability needed.")


class QueryVariants(BaseModel):
    model_config = ConfigDict(extra="forbid")
    queries: list[str] = Field(description="Alternative phrasings of the request.")


def _clean(texts: Iterable[object], limit: int, exclude: Iterable[str] = ()) -> list[str]:
    seen = {t.strip().lower() for t in exclude}
    out: list[str] = []
    for item in texts:
        t = " ".join(str(item).split())
        if t and t.lower() not in seen:
            seen.add(t.lower())
            out.append(t)
    return out[:limit]


def offline_decomposition(text: str, limit: int = MAX_SUBREQUESTS) -> list[str]:
    """Deterministic split into sub-requests without an LLM (rules in kg_tools/retrieval/stages/split.py)."""
    return _clean(split_request(text, limit), limit)


class Rewrite(Stage):
    name = "rewrite"
    reads = frozenset({"request", "queries"})
    writes = frozenset({"queries"})

    def run(self, ctx):
        try:
            answer = ask(self.env, ctx, "rewrite", RewrittenQuery, query=ctx.request.query)
        except LLMFallback as exc:
            ctx.note(self.name, f"{exc}; skipped, query unchanged", fallback=True)
            return
        rewritten = " ".join(answer.query.split())
        if not rewritten:
            ctx.note(self.name, "LLM returned an empty query; query unchanged", fallback=True)
            return
        ctx.queries = [rewritten] + ctx.queries[1:]
        ctx.note(self.name, f"rewritten: {rewritten!r}")


class Decompose(Stage):
    """Sub-requests, each searched on its own; the original (or rewritten) query stays first."""

    name = "decompose"
    reads = frozenset({"request", "queries"})
    writes = frozenset({"queries"})

    def nearest_tools(self, ctx, text: str) -> list[Candidate]:
        params = self.env.search_params(ctx, text, DECOMPOSE_CONTEXT_TOOLS)
        rows = self.env.run_query(
            retrieval_queries.search_query(ctx.request.mode, ctx.request.scope is not None), **params
        )
        return [Candidate(r["name"], r["score"], r["description"] or "", r["spec"]) for r in rows]

    def run(self, ctx):
        base = ctx.queries[0]
        try:
            if llm_client(self.env) is None:  # no context search for the offline split
                raise LLMFallback(NO_LLM)
            context = self.nearest_tools(ctx, base)
            answer = ask(
                self.env,
                ctx,
                "decompose",
                SubRequests,
                query=base,
                m=str(len(context)),
                max_sub_requests=str(MAX_SUBREQUESTS),
                tools=candidate_lines(context),
            )
            subs = _clean(answer.sub_requests, MAX_SUBREQUESTS, exclude=[base])
            ctx.queries = [base] + subs + ctx.queries[1:]
            ctx.note(
                self.name,
                f"{len(subs)} sub-request(s) from the LLM (context: {len(context)} nearest tools)"
                + (": " + " | ".join(subs) if subs else ""),
            )
        except LLMFallback as exc:
            subs = offline_decomposition(base)
            subs = subs if len(subs) > 1 else []
            ctx.queries = [base] + subs + ctx.queries[1:]
            ctx.note(
                self.name,
                f"{exc}; offline split on sentences, sequencers and action conjunctions: {len(subs)} sub-request(s)"
                + (": " + " | ".join(subs) if subs else ""),
                fallback=True,
            )


class Steps(Stage):
    """A request that names several steps ("find ..., then summarise it and save it to a file") is
    searched step by step (the offline split, no LLM) and the lists are merged round-robin: each
    step's best first, then the rest. A request that does not split is searched as it is."""

    name = "steps"
    reads = frozenset({"request", "queries"})
    writes = frozenset({"queries", "fusion", "rescore_each"})

    def run(self, ctx):
        steps = offline_decomposition(ctx.queries[0])
        if rescores_seeds(ctx.request):  # each step's list gets the default's offline rescoring
            ctx.rescore_each = True
        if len(steps) < 2:
            ctx.note(self.name, "one step: searched as it is")
            return
        ctx.queries = steps + ctx.queries[1:]
        ctx.fusion = ctx.request.fusion or "round-robin"
        ctx.note(self.name, f"{len(steps)} steps searched one by one, merged round-robin: " + " | ".join(steps))


class MultiQuery(Stage):
    name = "multi-query"
    reads = frozenset({"request", "queries"})
    writes = frozenset({"queries"})

    def run(self, ctx):
        base = ctx.queries[0]
        try:
            answer = ask(self.env, ctx, "multi_query", QueryVariants, query=base, n=str(MULTI_QUERY_VARIANTS))
        except LLMFallback as exc:
            ctx.note(self.name, f"{exc}; skipped, no variants", fallback=True)
            return
        variants = _clean(answer.queries, MULTI_QUERY_VARIANTS, exclude=ctx.queries)
        ctx.queries = ctx.queries + variants
        ctx.note(self.name, f"{len(variants)} variant(s): " + " | ".join(variants))
