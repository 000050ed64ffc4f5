"""Read what inference needs from the graph; apply, list and undo inference runs.

A run is `(:DependencyRun {id, created, catalog, method, min_confidence, proposed, edges, notes})`; each of
its edges is an ordinary dependency relationship with `inferred: true, run, confidence, method, reason,
parameter_name, ord` (ord from 1000 on: listed after a tool's hand-written edges). Apply and undo
refresh the precomputed expansion (kg_tools/closure.py) in their transaction. The run id is a hash of the proposals, so applying the same proposals twice changes
nothing. Undo deletes exactly that run's edges; hand-written edges are never touched.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime

from kg_tools import closure
from kg_tools.cypher import query
from kg_tools.deps.model import LabelledEdge, ProposedEdge, ToolInfo
from kg_tools.errors import DependencyRunNotFoundError
from kg_tools.graph import Graph
from kg_tools.write_lock import serialized


def catalog_tools(graph: Graph, catalog: str | None) -> dict[str, list[ToolInfo]]:
    """The tools of one catalog (or of every catalog), grouped by catalog."""
    out: dict[str, list[ToolInfo]] = {}
    for r in graph.read(query("deps_catalog_tools"), catalog=catalog):
        raw = json.loads(r["spec"]) if r["spec"] else {"name": r["name"]}
        out.setdefault(r["catalog"] or "", []).append(ToolInfo.from_raw(raw))
    return out


def catalog_edges(graph: Graph, catalog: str | None) -> tuple[list[LabelledEdge], set[tuple[str, str]]]:
    """(hand-written edges = labelled examples, every connected (source, target) pair)."""
    rows = graph.read(query("deps_edges"), catalog=catalog)
    hand = [LabelledEdge(r["source"], r["target"], r["type"], r["parameter_name"]) for r in rows if not r["inferred"]]
    return hand, {(r["source"], r["target"]) for r in rows}


def run_id_for(catalog: str | None, method: str, edges: list[ProposedEdge]) -> str:
    payload = json.dumps([catalog, method, [e.as_dict() for e in edges]], sort_keys=True)
    return "deps-" + hashlib.sha256(payload.encode()).hexdigest()[:12]


APPLY_BATCH = 1000  # inferred edges per write transaction


def apply_run(
    graph: Graph,
    run_id: str,
    catalog: str | None,
    method: str,
    min_confidence: float,
    edges: list[ProposedEdge],
    notes: list[str],
    batch_size: int = APPLY_BATCH,
) -> dict:
    """Write the proposals as one run in bounded transactions: the run node with the first `batch_size`
    edges, each further batch in its own transaction, then the closures of their sources. A failure part-way
    undoes what was written (the run's edges and node), so nothing is left half-applied.
    Returns {"run", "applied", "edges", "message"}."""
    if not edges:
        return {"run": run_id, "applied": False, "edges": 0, "message": "nothing to apply: no new edges proposed"}
    rows = [e.as_dict() for e in edges]
    run = {
        "id": run_id,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "catalog": catalog or "*",
        "method": method,
        "min_confidence": min_confidence,
        "proposed": len(edges),
        "notes": notes[:50],
        "edges": 0,
    }

    def first(tx) -> bool:
        if tx.run(query("deps_run_get"), run_id=run_id).single()["run"] is not None:
            return False
        tx.run(query("deps_apply_run"), run=run).consume()
        return True

    def batch(part: list[dict]):
        return lambda tx: tx.run(query("deps_apply_edges"), run_id=run_id, edges=part).single()["created"]

    if not serialized(graph, first):
        return {"run": run_id, "applied": False, "edges": 0, "message": f"run {run_id} is already applied"}
    created = 0
    try:
        for i in range(0, len(rows), batch_size):
            created += serialized(graph, batch(rows[i : i + batch_size]))
        sources = sorted({e.source for e in edges})
        serialized(graph, lambda tx: closure.refresh(tx, sources))  # the precomputed expansion
    except BaseException:
        undo_run(graph, run_id)
        raise
    return {
        "run": run_id,
        "applied": True,
        "edges": created,
        "message": f"applied {run_id}: {created} inferred dependency edges",
    }


def delete_catalog_edges(graph: Graph, catalog: str) -> None:
    """Every dependency edge from tools of `catalog` (eval deps), closures refreshed."""

    def work(tx) -> None:
        tx.run(query("deps_delete_all_edges"), catalog=catalog).consume()
        closure.refresh(tx)

    serialized(graph, work)


def list_runs(graph: Graph) -> list[dict]:
    """Each run with `edges_in_graph`; `stale` when none of its edges is left (their tools were deleted or
    rewritten): undo it to remove it from the list."""
    return [
        dict(r["run"])
        | {"edges_in_graph": r["edges_in_graph"], "stale": bool(r["run"].get("edges")) and r["edges_in_graph"] == 0}
        for r in graph.read(query("deps_runs"))
    ]


def undo_run(graph: Graph, run_id: str) -> dict:
    def work(tx) -> dict:
        if tx.run(query("deps_run_get"), run_id=run_id).single()["run"] is None:
            raise DependencyRunNotFoundError(run_id)
        sources = tx.run(query("deps_run_sources"), run_id=run_id).single()["sources"]
        removed = tx.run(query("deps_undo"), run_id=run_id).single()["removed"]
        closure.refresh(tx, sources)
        return {"run": run_id, "removed": removed}

    return serialized(graph, work)
