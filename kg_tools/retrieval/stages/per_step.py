"""Per-step retrieval (issue 29 items 1 and 3, opt-in): `per-step` splits a request into its steps (the
offline split, kg_tools/retrieval/stages/split.py), searches the request as a whole (step 0) and each step
with its own k (each list rescored offline by its own text), and merges the lists round-robin, each
list's best first: the first k x lists candidates are the seeds, each with its dependencies, then the rest
fill K. Every candidate keeps the step it serves (`step` on each tool: 0 the request as a whole, 1.. its
steps, listed in `stages`). Without the whole request's list the real-catalog dev set lost on single and
multi-tool requests (docs/retrieval.md). `diversify` (post-search) keeps
one server from taking a step's every slot: within each step's list a server's tools past the first
PER_SERVER go after the other servers' tools, then the steps are merged again."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache

from kg_tools.retrieval.context import Candidate, RetrievalContext, Stage
from kg_tools.retrieval.stages.fusion import by_step as merged
from kg_tools.retrieval.stages.search import rescores_seeds
from kg_tools.retrieval.stages.transform import offline_decomposition

# A step's tools of one server before the other servers' turn. Real-catalog dev set (where a multi-tool
# request's tools are mostly one server's): 3 on the default 0.534 -> 0.506 mAP@10; 1 with per-step
# (steps alone) 0.513 -> 0.448. Opt-in until a dev set with single-server floods says otherwise.
PER_SERVER = 3


class PerStep(Stage):
    name = "per-step"
    reads = frozenset({"request", "queries"})
    writes = frozenset({"queries", "fusion", "rescore_each", "per_step"})

    def run(self, ctx: RetrievalContext) -> None:
        steps = offline_decomposition(ctx.queries[0])
        ctx.rescore_each = rescores_seeds(ctx.request)  # each step's list rescored as the default rescores
        if len(steps) < 2:
            ctx.note(self.name, "one step: searched as it is")
            return
        ctx.queries = [ctx.queries[0], *steps]  # the request as a whole leads: "step" 0
        ctx.fusion = "round-robin"
        ctx.per_step = True
        listed = " | ".join(f"{i}: {s}" for i, s in enumerate(steps, start=1))
        ctx.note(
            self.name,
            f"{len(steps)} steps and the request as a whole (step 0), each searched with its own "
            f"k={ctx.request.k}: {listed}",
        )


@lru_cache(maxsize=8192)
def _spec_server(spec: str) -> str:
    try:
        data = json.loads(spec)
    except ValueError:
        return ""
    if not isinstance(data, dict):
        return ""
    upstream = data.get("upstream")
    upstream = upstream if isinstance(upstream, dict) else {}
    return str(data.get("mcp_server") or data.get("openapi_spec") or upstream.get("server") or "")


def server_of(candidate: Candidate) -> str:
    """The MCP server or OpenAPI spec a tool comes from (its spec, else a `server__tool` name); '' if none."""
    server = _spec_server(candidate.spec) if candidate.spec else ""
    if not server:
        prefix, sep, _ = candidate.name.partition("__")
        server = prefix if sep else ""
    return server


def diversified(items: Sequence[Candidate], per_server: int = PER_SERVER) -> list[Candidate]:
    """A server's tools past its first `per_server` go after the other servers' (stable); tools of no known
    server are each their own."""
    taken: dict[str, int] = {}
    keyed = []
    for i, item in enumerate(items):
        server = server_of(item) or f"\0{item.name}"
        keyed.append((taken.get(server, 0) // per_server, i, item))
        taken[server] = taken.get(server, 0) + 1
    return [item for _, _, item in sorted(keyed, key=lambda t: (t[0], t[1]))]


class Diversify(Stage):
    name = "diversify"
    reads = frozenset({"request", "candidates"})
    writes = frozenset({"candidates"})

    def run(self, ctx: RetrievalContext) -> None:
        candidates = ctx.candidates or []
        steps: dict[int | None, list[Candidate]] = {}
        for c in candidates:
            steps.setdefault(c.step, []).append(c)
        if None in steps or len(steps) < 2:
            ctx.candidates = diversified(candidates)
        else:
            last = max(step for step in steps if step is not None)
            ctx.candidates = merged([diversified(steps.get(step, [])) for step in range(last + 1)])
        ctx.note(self.name, f"by step, then at most {PER_SERVER} tool(s) of a server before the others")
