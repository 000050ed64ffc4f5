"""Candidate pairs from the Neo4j vector index: top-k neighbours per tool with cosine >= theta.

One query per batch of tools (UNWIND + db.index.vector.queryNodes) keeps the round trips few:
4,076 tools are ~9 queries.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from kg_tools.cypher import query
from kg_tools.errors import AmbiguousToolError
from kg_tools.graph import Graph
from kg_tools.schema import VECTOR_INDEX


@dataclass(frozen=True)
class CandidatePair:
    a: str  # a < b
    b: str
    cosine: float


def mergeable_tools(graph: Graph, catalog: str | None) -> dict[str, dict]:
    """name -> spec dict for every tool a new plan may touch. A plan is by name: without `catalog`, a name
    that several catalogs hold is an AmbiguousToolError (plan one catalog)."""
    rows = graph.read(query("merge_tools"), catalog=catalog)
    catalogs: dict[str, set[str]] = {}
    for r in rows:
        catalogs.setdefault(r["name"], set()).add(r["catalog"])
    shared = sorted(name for name, held in catalogs.items() if len(held) > 1)
    if shared:
        raise AmbiguousToolError(shared[0], sorted(catalogs[shared[0]]))
    specs = {}
    for r in rows:
        spec = json.loads(r["spec"]) if r["spec"] else {"name": r["name"], "description": r["description"] or ""}
        spec["name"] = r["name"]
        specs[r["name"]] = spec
    return specs


def candidate_pairs(
    graph: Graph, names: list[str], *, theta: float, top_k: int = 30, catalog: str | None = None, batch_size: int = 500
) -> list[CandidatePair]:
    """Undirected pairs (a < b), each with the best cosine seen from either side, sorted."""
    if not 0.0 < theta <= 1.0:
        raise ValueError(f"theta must be in (0, 1], got {theta}")
    if not 1 <= top_k <= 1000:
        raise ValueError(f"top_k must be in 1..1000, got {top_k}")
    allowed = set(names)
    best: dict[tuple[str, str], float] = {}
    cypher = query("merge_candidates")
    for i in range(0, len(names), batch_size):
        rows = graph.read(
            cypher,
            names=names[i : i + batch_size],
            vector_index=VECTOR_INDEX,
            top_k=top_k,
            theta=theta,
            catalog=catalog,
        )
        for r in rows:
            if r["b"] not in allowed:
                continue
            key = (r["a"], r["b"]) if r["a"] < r["b"] else (r["b"], r["a"])
            best[key] = max(best.get(key, -1.0), float(r["cosine"]))
    return [CandidatePair(a, b, c) for (a, b), c in sorted(best.items())]
