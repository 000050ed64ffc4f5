"""The last stage: seeds and their dependencies in order, unique, cut to K, as typed results."""

from __future__ import annotations

import json
from functools import lru_cache

from kg_tools.cypher import query
from kg_tools.retrieval import needed, ordering, relevance
from kg_tools.retrieval.context import Candidate, RetrievalContext, Stage
from kg_tools.retrieval.functions import openai_function
from kg_tools.retrieval.request import RetrievalRequest, ToolHit, Via, tool_key


class OrderAndTruncate(Stage):
    """seed 1, its dependencies, seed 2, its dependencies, ... unique, cut to K: the first k expanded
    candidates are the seeds; supplied-value dependencies go last within their seed
    (ordering.supplied_last); doubtful ones after the next seed (ordering.by_confidence), unless the query
    names what they provide; inferred ones the request likely does not need last, after the fill
    (kg_tools.retrieval.needed), and those of other seeds far from the query (kg_tools.retrieval.relevance);
    of a non-HTTP seed's other inferred ones, optional lookups past the first and lookups far below the next seed's
    cosine go after the next seed (`_after_next_seed`).
    K is a budget: when the k seeds and their dependencies give fewer than K
    tools, the next candidates (in order) fill it, each with its dependencies; `stages` says so (`fill`)."""

    name = "order"
    reads = frozenset({"request", "candidates", "seeds"})
    writes = frozenset({"tools"})

    def run(self, ctx: RetrievalContext) -> None:
        req = ctx.request
        rows = ctx.candidates or []
        seen: set[tuple[str, str]] = set()
        tools: list[ToolHit] = []
        k = ctx.seeds or req.k
        seeds, spare = rows[:k], rows[k:]
        doubtful: list[dict] = []  # the previous seed's doubtful dependencies: after this seed, not before it
        doubtful_step = None
        unneeded: list[tuple[list[dict], int | None]] = []  # every seed's unneeded ones: listed last
        cos = self._cosines(ctx, rows, k)
        for i, row in enumerate(seeds):
            sure, later, spare_deps = self._dependencies(row, req)
            if cos and not needed.http_operation(row.spec):  # inferred ones far from the query: last (relevance.py)
                sure, spare_deps = self._far_last(
                    row, rows[i + 1] if i + 1 < len(rows) else None, sure, spare_deps, cos
                )
                if i + 1 < len(seeds):  # optional lookups past the first, far lookups: after the next seed
                    sure, after_next = self._after_next_seed(row, seeds[i + 1], sure, cos)
                    later = after_next + later
            _add(row, [], req, seen, tools)
            _add(None, doubtful, req, seen, tools, doubtful_step)
            _add(None, sure, req, seen, tools, row.step)
            doubtful, doubtful_step = later, row.step
            unneeded.append((spare_deps, row.step))
        _add(None, doubtful, req, seen, tools, doubtful_step)
        filled_from = len(tools)
        used = 0
        for row in spare:
            if len(tools) >= req.K:
                break
            if row.key in seen and all(_key(d) in seen for d in row.deps or []):
                continue
            sure, later, spare_deps = self._dependencies(row, req)
            _add(row, sure + later, req, seen, tools)
            unneeded.append((spare_deps, row.step))
            used += 1
        for deps, step in unneeded:  # last: only when K leaves room after the fill
            _add(None, deps, req, seen, tools, step)
        ctx.tools = tools
        if used:
            ctx.note(
                "fill",
                f"{k} seed(s) and their dependencies gave {filled_from} of K={req.K} tools: "
                f"the next {used} seed(s) filled it",
            )
        ctx.note("order", ("supplied values last, " if req.supplied_last else "") + f"unique, truncated to K={req.K}")

    def _far_last(
        self,
        row: Candidate,
        following: Candidate | None,
        sure: list[dict],
        spare_deps: list[dict],
        cos: dict[tuple[str, str], float],
    ) -> tuple[list[dict], list[dict]]:
        """(`sure` without the dependencies far from the query, those moved before the seed's unneeded ones)."""
        far = relevance.unrelated(
            row.name, row.spec, sure, cos.get(following.key) if following else None, cos, self._ratio
        )
        return [d for d in sure if d["name"] not in far], [d for d in sure if d["name"] in far] + spare_deps

    def _after_next_seed(
        self, row: Candidate, following: Candidate, sure: list[dict], cos: dict[tuple[str, str], float]
    ) -> tuple[list[dict], list[dict]]:
        """(`sure` without the dependencies listed after the next seed, those): the optional lookups past the first
        (`_optional_lookups_past`), then the far ones (`_far_from_next_seed`), in that order."""
        sure, past = self._optional_lookups_past(row, sure)
        sure, far = self._far_from_next_seed(sure, cos.get(following.key), cos)
        return sure, far + past

    def _optional_lookups_past(self, row: Candidate, sure: list[dict]) -> tuple[list[dict], list[dict]]:
        """(`sure` without the optional lookups past the first, those; docs/dependencies.md, "sixteenth session: one
        optional lookup before the next seed"): of the inferred dependencies that are not :Core and not on a chain of
        required inputs from the seed, those after the first `deps_before_next_seed`."""
        cap = self.env.settings.deps_before_next_seed
        if not cap:
            return sure, []
        specs = {row.name: row.spec} | {d["name"]: d.get("spec") for d in sure}
        required = {row.name}  # the seed and the providers of its required inputs, chained
        countable = []
        for d in sure:
            via = d.get("via") or {}
            source = str(via.get("from"))
            if source in required and _fills_required(via, specs.get(source)):
                required.add(d["name"])
            elif via.get("inferred") and d.get("func_type") != "core":
                countable.append(d)
        later = {id(d) for d in countable[cap:]}
        return [d for d in sure if id(d) not in later], [d for d in sure if id(d) in later]

    def _far_from_next_seed(
        self, sure: list[dict], reference: float | None, cos: dict[tuple[str, str], float]
    ) -> tuple[list[dict], list[dict]]:
        """(`sure` without the far lookups, those; docs/dependencies.md, "seventeenth session: a far lookup after the
        next seed"): an inferred dependency that is not :Core, required or not, whose cosine to the query is below
        `deps_far_after_next_seed` x the next seed's, and what is reached through it. When the seed is wrong, or the
        request's tools are independent, such a lookup pushes a tool the search found down; a lookup the request
        needs is rarely that much further from the query than the next candidate."""
        ratio = self.env.settings.deps_far_after_next_seed
        if ratio <= 0 or reference is None:
            return sure, []
        bar = ratio * max(reference, 0.0)
        moved: set[str] = set()
        for d in sure:
            via = d.get("via") or {}
            c = cos.get(_key(d))
            if via.get("from") in moved or (
                via.get("inferred") and d.get("func_type") != "core" and c is not None and c < bar
            ):
                moved.add(d["name"])
        return [d for d in sure if d["name"] not in moved], [d for d in sure if d["name"] in moved]

    @property
    def _ratio(self) -> float:
        return self.env.settings.deps_query_relevance

    def _cosines(self, ctx: RetrievalContext, rows: list[Candidate], k: int) -> dict[tuple[str, str], float]:
        """The cosines to the query of the seeds' inferred dependencies and of the candidates after the first
        (relevance.py); none (and no read) when the setting is off, the search is fulltext only, or no seed that is
        not an HTTP operation (those have kg_tools.retrieval.needed's rules) has an inferred dependency."""
        req = ctx.request
        if self._ratio <= 0 or req.mode == "fulltext":
            return {}
        keys = [
            _key(d)
            for row in rows[:k]
            if not needed.http_operation(row.spec)
            for d in row.deps or []
            if (d.get("via") or {}).get("inferred")
        ]
        if not keys:
            return {}
        keys += [row.key for row in rows[1 : k + 1]]
        env = self.env
        # not recorded for `retrieve --cypher`: memory of the graph, as the server index's (server_index.py)
        vectors = env.tool_vectors.get(
            ctx.graph_version, keys, lambda tools: env.graph.read_plain(query("tool_vectors"), {"tools": tools})
        )
        return relevance.cosines(env.embed(ctx, req.query), vectors)

    def _dependencies(self, row: Candidate, req: RetrievalRequest) -> tuple[list[dict], list[dict], list[dict]]:
        """(the dependencies listed right after the seed, the doubtful ones listed after the next seed, the
        unneeded ones listed last: kg_tools.retrieval.needed)."""
        deps = row.deps or []
        if req.supplied_last:
            deps = ordering.supplied_last(row.name, row.spec, deps, req.query)
        s = self.env.settings
        sure, doubtful = ordering.by_confidence(deps, s.deps_follow_min_confidence, s.deps_sure_confidence)
        if not s.deps_by_request or not needed.http_operation(row.spec):
            return sure, doubtful, []
        sure, doubtful = needed.said_first(row.name, sure, doubtful, req.query)
        return needed.split_unneeded(sure, doubtful, needed.unneeded(row.name, row.spec, deps, req.query))


def _add(
    row: Candidate | None,
    deps: list[dict],
    req: RetrievalRequest,
    seen: set[tuple[str, str]],
    tools: list[ToolHit],
    step: int | None = None,
) -> None:
    """The seed (if any) then `deps` as tool hits, each once, until K; `step`: the step the deps serve (a
    seed's own, by default)."""
    entries = [(_seed_entry(row), "seed", None)] if row is not None else []
    entries += [(d, "dependency", d["via"]) for d in deps]
    step = row.step if row is not None else step
    for entry, role, via in entries:
        if len(tools) >= req.K:
            return
        if _key(entry) in seen:
            continue
        seen.add(_key(entry))
        spec, function = parsed_spec(entry["spec"]) if entry.get("spec") else _bare_spec(entry["name"])
        tools.append(
            ToolHit(
                name=entry["name"],
                catalog=entry.get("catalog"),
                kind="core" if entry.get("func_type") == "core" else "regular",
                role=role,
                score=entry["score"] if role == "seed" else None,
                via=[Via.model_validate(via)] if via else [],
                members=sorted(entry.get("members") or []),
                spec=spec,
                function=function,
                step=step,
            )
        )


def _fills_required(via: dict, spec: str | dict | None) -> bool:
    """The edge fills a parameter its dependent tool requires, or names none (`items[].id` is `items`'s)."""
    names = needed.parameter_names(via)
    return not names or not needed.only_optional(names, spec)


def _key(entry: dict) -> tuple[str, str]:
    return tool_key(entry["name"], entry.get("catalog"))


def _seed_entry(row: Candidate) -> dict:
    return {
        "name": row.name,
        "catalog": row.catalog,
        "spec": row.spec,
        "func_type": row.func_type,
        "members": row.members,
        "score": row.score,
    }


@lru_cache(maxsize=8192)
def parsed_spec(text: str) -> tuple[dict, dict]:
    """A stored spec text -> (spec, OpenAI function), parsed once per text: the same tools recur
    across requests. ToolHit copies both dicts; what they contain is shared, so it is read-only."""
    spec = json.loads(text)
    return spec, openai_function(spec)


def _bare_spec(name: str) -> tuple[dict, dict]:
    spec = {"name": name}
    return spec, openai_function(spec)
