"""Duplicate removal among search candidates: a candidate is dropped when a better-ranked one has
the same normalised description and parameters, or an embedding cosine >= settings.dedupe_threshold.
(Merged tools are already folded into their canonical tool by the search; this catches the rest.)"""

from __future__ import annotations

import json
import re

import numpy as np

from kg_tools.cypher import query
from kg_tools.retrieval.context import Candidate, RetrievalContext, Stage
from kg_tools.retrieval.request import tool_key


def _signature(candidate) -> str:
    params = []
    if candidate.spec:
        try:
            params = sorted(p.get("name", "") for p in json.loads(candidate.spec).get("parameters") or [])
        except (ValueError, AttributeError, TypeError):
            params = []
    text = re.sub(r"\W+", " ", (candidate.description or "").lower()).strip()
    return text + "|" + ",".join(params)


def _cosine_twin(vec: np.ndarray, kept: list[tuple[str, np.ndarray]], threshold: float) -> str | None:
    """The first kept candidate whose embedding's cosine with `vec` reaches the threshold."""
    norm = np.linalg.norm(vec) or 1.0
    for name, other in kept:
        if float(vec @ other) / (norm * (np.linalg.norm(other) or 1.0)) >= threshold:
            return name
    return None


def deduplicated(
    candidates: list[Candidate], vectors: dict[tuple[str, str], np.ndarray], threshold: float
) -> tuple[list[Candidate], list[str]]:
    """(the candidates without duplicates of a better one, "name (duplicate of twin)" per dropped one);
    `vectors` by Candidate.key."""
    kept: list[Candidate] = []
    dropped: list[str] = []
    signatures: dict[str, str] = {}
    kept_vectors: list[tuple[str, np.ndarray]] = []
    for c in candidates:
        sig = _signature(c) if c.description else None
        vec = vectors.get(c.key)
        twin = signatures.get(sig) if sig else None
        if twin is None and vec is not None:
            twin = _cosine_twin(vec, kept_vectors, threshold)
        if twin is not None:
            dropped.append(f"{c.name} (duplicate of {twin})")
            continue
        kept.append(c)
        if sig:
            signatures.setdefault(sig, c.name)
        if vec is not None:
            kept_vectors.append((c.name, vec))
    return kept, dropped


class Dedupe(Stage):
    name = "dedupe"
    reads = frozenset({"request", "candidates"})
    writes = frozenset({"candidates"})

    def run(self, ctx: RetrievalContext) -> None:
        candidates = ctx.candidates or []
        if len(candidates) < 2:
            ctx.note(self.name, "nothing to compare")
            return
        threshold = self.env.settings.dedupe_threshold
        rows = self.env.run_query(query("tool_embeddings"), names=[c.name for c in candidates])
        vectors = {
            tool_key(r["name"], r["catalog"]): np.asarray(r["embedding"], dtype=np.float32)
            for r in rows
            if r["embedding"]
        }
        ctx.candidates, dropped = deduplicated(candidates, vectors, threshold)
        ctx.note(
            self.name,
            f"removed {len(dropped)}"
            + (": " + ", ".join(dropped[:10]) if dropped else "")
            + f" (cosine >= {threshold} or same description and parameters)",
        )
