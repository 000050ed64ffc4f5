"""`rerank-offline`: the default seed rescoring (kg_tools/retrieval/ordering.py) as a stage over
search candidates, for requests that take the staged path (post-search stages such as `dedupe`).

On the default one-round-trip path the same rescoring runs over the expansion rows in
OrderAndTruncate; both give the same seeds. Until issue 9 this stage also weighed the similarity of
the query to the tool's description alone (W 0.3, weights chosen on all of ToolLinkOS); on the
ToolLinkOS dev half that term added 0.001 mAP@10 for 20 extra embeddings per query, so it was
dropped and the remaining weights were re-chosen on dev data only.
"""

from __future__ import annotations

import importlib
from dataclasses import replace

from kg_tools.retrieval import ordering
from kg_tools.retrieval.pipeline import Stage, register_stage


class OfflineRerank(Stage):
    """Deterministic rescoring of the first SEED_POOL candidates (vector scores)."""

    name = "rerank-offline"

    def run(self, ctx):
        candidates = ctx.candidates or []
        if len(candidates) < 2:
            ctx.note(self.name, "fewer than 2 candidates: nothing to rerank")
            return
        head, tail = candidates[: ordering.SEED_POOL], candidates[ordering.SEED_POOL :]
        rescored = ordering.rescore(
            ctx.request.query, head, lambda c: c.name, lambda c: c.score or 0.0, lambda c: c.spec
        )
        ctx.candidates = [replace(c, score=round(score, 6)) for score, c in rescored] + tail
        ctx.note(self.name, f"top {len(head)} rescored (location level, supplied values, name words)")


register_stage("rerank-offline", "post-search", OfflineRerank)


def load_all_stages() -> None:
    """Register every stage: the package's built-ins (kg_tools.retrieval imports them) and this one."""
    importlib.import_module("kg_tools.retrieval")
