"""The last stage: seeds and their dependencies in order, unique, cut to K, as typed results."""

from __future__ import annotations

import json
from functools import lru_cache

from kg_tools.retrieval import ordering
from kg_tools.retrieval.context import PipelineEnv, RetrievalContext, Stage
from kg_tools.retrieval.expansion import Row
from kg_tools.retrieval.functions import openai_function
from kg_tools.retrieval.request import RetrievalRequest, ToolHit, Via


class OrderAndTruncate(Stage):
    """seed 1, its dependencies, seed 2, its dependencies, ... unique, cut to K. On the default path
    (`rescore`: the plan asks for it) the first SEED_POOL rows are rescored (ordering.rescored) and
    the best k are the seeds, whatever k is, as the staged rerank-offline does; supplied-value
    dependencies go last within their seed (ordering.supplied_last). K is a budget: when the k seeds
    and their dependencies give fewer than K tools, the next rows (in order) fill it, each with its
    dependencies; `stages` says so (`fill`)."""

    name = "order"

    def __init__(self, env: PipelineEnv, rescore: bool = False):
        super().__init__(env)
        self.rescore = rescore

    def run(self, ctx: RetrievalContext) -> None:
        req = ctx.request
        rows = ctx.rows or []
        if self.rescore and len(rows) >= 2:
            rows = ordering.rescored(
                req.query,
                rows,
                lambda r: r["name"],
                lambda r: r["score"],
                lambda r: r["spec"],
                lambda r, score: {**r, "score": score},
            )
            ctx.note(
                "rerank-offline",
                f"{ordering.rescored_note(len(rows))}, {min(req.k, len(rows))} kept",
            )
        seen: set[str] = set()
        tools: list[ToolHit] = []
        seeds, spare = rows[: req.k], rows[req.k :]
        doubtful: list[dict] = []  # the previous seed's doubtful dependencies: after this seed, not before it
        for row in seeds:
            sure, later = self._dependencies(row, req)
            self._add(row, [], req, seen, tools)
            self._add(None, doubtful + sure, req, seen, tools)
            doubtful = later
        self._add(None, doubtful, req, seen, tools)
        filled_from = len(tools)
        used = 0
        for row in spare:
            if len(tools) >= req.K:
                break
            if row["name"] in seen and all(d["name"] in seen for d in row["deps"]):
                continue
            sure, later = self._dependencies(row, req)
            self._add(row, sure + later, req, seen, tools)
            used += 1
        ctx.tools = tools
        if used:
            ctx.note(
                "fill",
                f"{req.k} seed(s) and their dependencies gave {filled_from} of K={req.K} tools: "
                f"the next {used} seed(s) filled it",
            )
        ctx.note("order", ("supplied values last, " if req.supplied_last else "") + f"unique, truncated to K={req.K}")

    def _dependencies(self, row: Row, req: RetrievalRequest) -> tuple[list[dict], list[dict]]:
        """(the dependencies listed right after the seed, the doubtful ones listed after the next seed)."""
        deps = ordering.supplied_last(row, req.query) if req.supplied_last else row["deps"]
        s = self.env.settings
        return ordering.by_confidence(deps, s.deps_follow_min_confidence, s.deps_sure_confidence)

    @staticmethod
    def _add(row: Row | None, deps: list[dict], req: RetrievalRequest, seen: set[str], tools: list[ToolHit]) -> None:
        entries = ([(row, "seed", None)] if row is not None else []) + [(d, "dependency", d["via"]) for d in deps]
        for entry, role, via in entries:
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
                    score=entry["score"] if role == "seed" else None,
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
