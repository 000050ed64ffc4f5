"""`server-score` (post-search): a tool's score draws on its server's (issue 21 item 3, after the GRTF
authors' "Agent-as-a-Graph"). Each candidate provided by a (:Server) with an embedding gets

    score = (1 - w) * its own score + w * similarity(query, server)

(both in the vector index's [0, 1] scale), and the candidates are re-sorted before any reranking and
expansion. A candidate no server provides keeps its score. w is settings.server_score_weight
(KG_TOOLS_SERVER_SCORE_WEIGHT), chosen on the real-catalog
dev set (benchmarks/data/real/queries_dev.json, `kg-tools eval catalog … --servers`), see
docs/retrieval.md."""

from __future__ import annotations

from dataclasses import replace

from kg_tools.cypher import query
from kg_tools.retrieval.context import Candidate, Stage


def blend(candidates: list[Candidate], server_scores: dict[str, float], weight: float) -> list[Candidate]:
    """Candidates with their server's similarity blended in, best first (ties keep search order)."""
    scored = []
    for i, c in enumerate(candidates):
        own = c.score or 0.0
        server = server_scores.get(c.name)
        score = own if server is None else (1.0 - weight) * own + weight * server
        scored.append((score, i, c))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [replace(c, score=round(score, 6)) for score, _, c in scored]


class ServerScore(Stage):
    name = "server-score"
    reads = frozenset({"request", "candidates", "rescore_each"})
    writes = frozenset({"candidates"})

    def run(self, ctx):
        candidates = ctx.candidates or []
        if not candidates:
            ctx.note(self.name, "no candidates")
            return
        if ctx.rescore_each:  # per-step/steps: each list already rescored by its own text (another scale);
            # blending those broke their order (real-catalog dev with per-step: 0.560 -> 0.277 mAP@10)
            ctx.note(self.name, "each step's list already rescored by its own text: scores unchanged")
            return
        rows = self.env.run_query(
            query("server_scores"),
            names=[c.name for c in candidates],
            embedding=self.env.embed(ctx, ctx.request.query),
        )
        scores = {r["name"]: float(r["score"]) for r in rows}
        if not scores:
            ctx.note(self.name, "no candidate has a server with an embedding: scores unchanged")
            return
        weight = self.env.settings.server_score_weight
        ctx.candidates = blend(candidates, scores, weight)
        ctx.note(
            self.name,
            f"{len(scores)} of {len(candidates)} candidates blended with their server's similarity (weight {weight})",
        )
