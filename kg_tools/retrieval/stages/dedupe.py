"""Duplicate removal among search candidates: a candidate is dropped when a better-ranked one has
the same normalised description and parameters, or an embedding cosine >= settings.dedupe_threshold.
(Merged tools are already folded into their canonical tool by the search; this catches the rest.)"""

from __future__ import annotations

import json
import re

import numpy as np

from kg_tools.cypher import query
from kg_tools.retrieval.context import Candidate, RetrievalContext, Stage


def _signature(candidate) -> str:
    params = []
    if candidate.spec:
        try:
            params = sorted(p.get("name", "") for p in json.loads(candidate.spec).get("parameters") or [])
        except (ValueError, AttributeError, TypeError):
            params = []
    text = re.sub(r"\W+", " ", (candidate.description or "").lower()).strip()
    return text + "|" + ",".join(params)


class Dedupe(Stage):
    name = "dedupe"

    def run(self, ctx: RetrievalContext) -> None:
        candidates = ctx.candidates or []
        if len(candidates) < 2:
            ctx.note(self.name, "nothing to compare")
            return
        threshold = self.env.settings.dedupe_threshold
        rows = self.env.run_query(query("tool_embeddings"), names=[c.name for c in candidates])
        vectors = {r["name"]: np.asarray(r["embedding"], dtype=np.float32) for r in rows if r["embedding"]}
        kept: list[Candidate] = []
        dropped: list[str] = []
        signatures: dict[str, str] = {}
        kept_vectors: list[tuple[str, np.ndarray]] = []
        for c in candidates:
            sig = _signature(c) if c.description else None
            twin = signatures.get(sig) if sig else None
            vec = vectors.get(c.name)
            if twin is None and vec is not None and kept_vectors:
                norm = np.linalg.norm(vec) or 1.0
                for other_name, other in kept_vectors:
                    if float(vec @ other) / (norm * (np.linalg.norm(other) or 1.0)) >= threshold:
                        twin = other_name
                        break
            if twin is not None:
                dropped.append(f"{c.name} (duplicate of {twin})")
                continue
            kept.append(c)
            if sig:
                signatures.setdefault(sig, c.name)
            if vec is not None:
                kept_vectors.append((c.name, vec))
        ctx.candidates = kept
        ctx.note(
            self.name,
            f"removed {len(dropped)}"
            + (": " + ", ".join(dropped[:10]) if dropped else "")
            + f" (cosine >= {threshold} or same description and parameters)",
        )
