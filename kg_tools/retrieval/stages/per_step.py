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
from dataclasses import replace
from functools import lru_cache

from kg_tools.cypher import query
from kg_tools.implied import ImpliedTool, implied_utilities, pick_utilities
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


IMPLIED = "IMPLIED_BY_STEP"  # the `via.type` of a utility a step implies


def _step_texts(ctx: RetrievalContext) -> list[tuple[int | None, str]]:
    """(step, text) of what is searched: the steps 1.. of a per-step request (step 0, the request as a whole,
    implies nothing of its own), else the request itself (its candidates carry no step)."""
    if ctx.per_step and len(ctx.queries) > 1:
        return [(step, text) for step, text in enumerate(ctx.queries) if step > 0]
    return [(None, ctx.queries[0])]


def _attached(best: Candidate, picked: list[ImpliedTool], rows: dict[str, dict]) -> Candidate:
    """`best` with the picked utilities after its own dependencies (those it already has, or is, left out)."""
    have = {best.name, *(d["name"] for d in best.deps or [])}
    extra: list[dict] = [
        {
            "name": p.name,
            "catalog": rows[p.name].get("catalog"),
            "func_type": rows[p.name].get("func_type"),
            "spec": rows[p.name].get("spec"),
            "members": [],
            "via": {
                "from": best.name,
                "type": IMPLIED,
                "parameter_name": None,
                "reason": f"the step says '{p.evidence}'",
            },
        }
        for p in picked
        if p.name not in have
    ]
    return replace(best, deps=[*(best.deps or []), *extra]) if extra else best


def _picked(found: list, rows: dict[str, dict], own: list[Candidate]) -> list[ImpliedTool]:
    """The utilities to attach for one step (`own`: its first k tools, best first): pick_utilities over the
    step's own servers; none of the kind its best tool is (a deprecated reader first: another reader attached
    to it would follow it, and vanish with it where it is not offered, as the gateway hides it)."""
    servers = {server_of(c) for c in own} - {""}
    best_kind = rows.get(own[0].name, {}).get("kind")
    return [p for p in pick_utilities(found, list(rows.values()), servers) if p.kind != best_kind]


class Utilities(Stage):
    """After the expansion: the generic utility a step implies (a path to save to -> a file writer, a URL ->
    a fetch tool, "search the web for" -> a web search; kg_tools/implied.py) attached as a dependency of
    the step's best tool: the catalog's :Core tool of that kind (`kg-tools core detect --apply`), one of the
    servers of the step's own tools first, then the closest to the request. Nothing when no step implies a
    utility (no extra query then), when the catalog has none of the kind, or when the step's best tool is one."""

    name = "utilities"
    reads = frozenset({"request", "queries", "per_step", "candidates"})
    writes = frozenset({"candidates"})

    def run(self, ctx: RetrievalContext) -> None:
        candidates = list(ctx.candidates or [])
        implied = [(step, found) for step, text in _step_texts(ctx) if (found := implied_utilities(text))]
        if not implied or not candidates:
            return
        kinds = sorted({kind for _, found in implied for kind, _ in found})
        rows = self._utilities(ctx, kinds)
        notes = []
        for step, found in implied:
            own = [i for i, c in enumerate(candidates) if step is None or c.step == step]
            if not own:
                continue
            picked = _picked(found, rows, [candidates[i] for i in own[: ctx.request.k]])
            candidates[own[0]] = _attached(candidates[own[0]], picked, rows)
            label = "request" if step is None else f"step {step}"
            notes += [f"{label}: '{p.evidence}' -> {p.name} ({p.kind})" for p in picked]
        ctx.candidates = candidates
        ctx.note(self.name, "; ".join(notes) or "implied " + ", ".join(kinds) + ": no :Core utility of the kind")

    def _utilities(self, ctx: RetrievalContext, kinds: Sequence[str]) -> dict[str, dict]:
        """The :Core utilities of `kinds` in the request's catalogs by name, each with its server and its
        cosine to the request (cypher/core_utilities)."""
        req = ctx.request
        embedding = self.env.embed(ctx, req.query) if req.mode != "fulltext" else None
        rows = self.env.run_query(query("core_utilities"), kinds=kinds, catalogs=req.scope, embedding=embedding)
        return {r["name"]: {**r, "server": server_of(Candidate(r["name"], None, spec=r.get("spec")))} for r in rows}
