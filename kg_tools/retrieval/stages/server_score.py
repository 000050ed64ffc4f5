"""`server-score` (post-search): a tool's score draws on its server's (issue 21 item 3, after the GRTF
authors' "Agent-as-a-Graph"). Each candidate provided by a (:Server) with an embedding gets

    score = (1 - w) * its own score + w * similarity(query, server)

(both in the vector index's [0, 1] scale), and the candidates are re-sorted before any reranking and
expansion. A candidate no server provides keeps its score. w is settings.server_score_weight
(KG_TOOLS_SERVER_SCORE_WEIGHT), chosen on the real-catalog dev set (docs/retrieval.md).

Part of the default request since issue 29 (plan.py: `server_score`, vector-scale searches of the request
itself); named in `stages` it runs on any request. It reads the servers once per graph version
(kg_tools/retrieval/server_index.py), so the default request stays one round trip; it runs on the rows the
search expanded (fill_pool: 15 by default; blending the search's 50 instead measured the same on dev). Run by
default, it notes `stages` and times itself only when it blended something: a graph without (:Server)
nodes gets exactly the response it got before."""

from __future__ import annotations

from dataclasses import replace

from kg_tools.retrieval.context import Candidate, PipelineEnv, RetrievalContext, Stage
from kg_tools.retrieval.server_index import Key


def blend(candidates: list[Candidate], server_scores: dict[Key, float], weight: float) -> list[Candidate]:
    """Candidates with their server's similarity blended in, best first (ties keep search order);
    `server_scores` by Candidate.key."""
    scored = []
    for i, c in enumerate(candidates):
        own = c.score or 0.0
        server = server_scores.get(c.key)
        score = own if server is None else (1.0 - weight) * own + weight * server
        scored.append((score, i, c))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [replace(c, score=round(score, 6)) for score, _, c in scored]


def blended_by_text(env: PipelineEnv, ctx: RetrievalContext, text: str, candidates: list[Candidate]) -> list[Candidate]:
    """One step's list (per-step, steps: searched and rescored by its own text) blended with the similarity of
    that text to each candidate's server, before its rescoring: the list's own scale (real-catalog dev sets
    with `per-step`: multi-tool 0.386 -> 0.440 and 0.424 -> 0.483 mAP@10, multi-step 0.482 -> 0.483 and
    0.400 -> 0.429, single-tool 0.778 -> 0.794 and 0.671 -> 0.674). Unchanged without servers, or with
    `server_score` off."""
    if not ctx.request.server_score or not candidates:
        return candidates
    servers = env.servers(ctx.graph_version)
    provided = servers.provided(c.key for c in candidates)
    scores = servers.scores(provided, env.embed(ctx, text)) if provided else {}
    if not scores:
        return candidates
    weight = env.settings.server_score_weight
    ctx.note(
        ServerScore.name,
        f"{text!r}: {len(scores)} of {len(candidates)} candidates blended with their server's similarity to it "
        f"(weight {weight})",
    )
    return blend(candidates, scores, weight)


class ServerScore(Stage):
    name = "server-score"
    reads = frozenset({"request", "candidates", "rescore_each", "graph_version"})
    writes = frozenset({"candidates"})
    on_expanded_rows = True  # it reorders the candidates the expansion gets (fill_pool of them)

    def __init__(self, env: PipelineEnv, by_default: bool = False):
        super().__init__(env)
        self.by_default = by_default  # planned by default (plan.py), not named in `stages`
        self.blended = False

    @property
    def timing_key(self) -> str:
        # run by default and blending nothing, its time (no query, a dict look-up) counts as the ordering's
        return self.name if self.blended or not self.by_default else "order"

    def run(self, ctx: RetrievalContext) -> None:
        candidates = ctx.candidates or []
        if not candidates:
            self._note(ctx, "no candidates")
            return
        if ctx.rescore_each:  # per-step/steps: each list already rescored by its own text (another scale);
            # blending those broke their order (real-catalog dev with per-step: 0.560 -> 0.277 mAP@10); each
            # list is blended by its own text before its rescoring instead (blended_by_text)
            self._note(ctx, "each step's list already rescored by its own text: scores unchanged")
            return
        servers = self.env.servers(ctx.graph_version)
        provided = servers.provided(c.key for c in candidates)
        if not provided:
            self._note(ctx, "no candidate has a server with an embedding: scores unchanged")
            return
        scores = servers.scores(provided, self.env.embed(ctx, ctx.request.query))
        if not scores:
            self._note(ctx, "no candidate's server has an embedding of the query's dimension: scores unchanged")
            return
        weight = self.env.settings.server_score_weight
        ctx.candidates = blend(candidates, scores, weight)
        self.blended = True
        ctx.note(
            self.name,
            f"{len(scores)} of {len(candidates)} candidates blended with their server's similarity (weight {weight})",
        )

    def _note(self, ctx: RetrievalContext, detail: str) -> None:
        if not self.by_default:  # named in `stages`: say why it changed nothing
            ctx.note(self.name, detail)
