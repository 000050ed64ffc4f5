"""`self-check` (Toolshed's self-reflection): after search and rerank, the LLM looks at the top-k
tools and may ask for ONE more retrieval when a capability the request needs is missing. The best
new tool from that search becomes the last seed (position k); at most one extra retrieval."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from kg_tools.retrieval import queries as retrieval_queries
from kg_tools.retrieval.context import Candidate, Stage
from kg_tools.retrieval.request import tool_key
from kg_tools.retrieval.stages.llm_call import LLMFallback, ask, candidate_lines


class SelfCheckAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    missing_capability: bool = Field(description="True if a capability the request needs is not covered.")
    search_query: str = Field(description="A search query for the missing capability ('' if none).")


class SelfCheck(Stage):
    name = "self-check"
    reads = frozenset({"request", "candidates"})
    writes = frozenset({"candidates"})

    def run(self, ctx):
        k = ctx.request.k
        candidates = ctx.candidates or []
        top = candidates[:k]
        try:
            answer = ask(
                self.env, ctx, "self_check", SelfCheckAnswer, query=ctx.request.query, tools=candidate_lines(top)
            )
        except LLMFallback as exc:
            ctx.note(self.name, f"{exc}; skipped", fallback=True)
            return
        text = " ".join(answer.search_query.split())
        if not answer.missing_capability or not text:
            ctx.note(self.name, "LLM found nothing missing")
            return
        params = self.env.search_params(ctx, text, k + len(top))
        rows = self.env.run_query(
            retrieval_queries.search_query(ctx.request.mode, ctx.request.scope is not None), **params
        )
        present = {c.key for c in top}
        new = next((r for r in rows if tool_key(r["name"], r.get("catalog")) not in present), None)
        if new is None:
            ctx.note(self.name, f"extra retrieval for {text!r} found no new tool")
            return
        added = Candidate(new["name"], new["score"], new["description"] or "", new["spec"], catalog=new.get("catalog"))
        rest = [c for c in candidates if c.key != added.key]
        ctx.candidates = rest[: k - 1] + [added] + rest[k - 1 :]
        ctx.note(self.name, f"missing capability searched as {text!r}: added {added.name} as seed {k}")
