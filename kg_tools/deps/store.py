"""Read what inference needs from the graph; apply, list, undo and recover inference runs.

A run is `(:DependencyRun {id, created, catalog, method, min_confidence, proposed, edges, notes, status,
sources})`; each of its edges is an ordinary dependency relationship with `inferred: true, run, confidence,
method, reason, parameter_name, ord` (ord from 1000 on: listed after a tool's hand-written edges). The run
id is a hash of the proposals, so applying the same proposals twice changes nothing. Undo deletes exactly
that run's edges; hand-written edges are never touched. Apply, undo and recovery refresh the precomputed
expansion (kg_tools/closure.py) in the transaction that changes the run's state, so a crash at any point
leaves either an applied run with fresh closures or a `pending` run that the next `recover` rolls back
(docs/concurrency.md).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Literal

from pydantic import ConfigDict, Field

from kg_tools import closure, write_lock
from kg_tools.cypher import query
from kg_tools.deps.offline import LabelledEdge, ProposedEdge, ToolInfo
from kg_tools.errors import DependencyRunNotFoundError, WriteConflictError
from kg_tools.graph import Graph
from kg_tools.results import Result
from kg_tools.write_lock import serialized

logger = logging.getLogger(__name__)


class AppliedRun(Result):
    run: str
    applied: bool = Field(
        description="False: nothing to apply, or the same run is already applied (or being applied by another request)."
    )
    edges: int = Field(description="Inferred edges written.")
    message: str


class DependencyRun(Result):
    """A `:DependencyRun` node's properties (kg_tools/deps/store.py) and how many of its edges are left."""

    model_config = ConfigDict(extra="allow")
    id: str
    created: str | None = None
    catalog: str | None = None
    method: str | None = None
    min_confidence: float | None = None
    proposed: int | None = None
    edges: int | None = None
    notes: list[str] | None = None
    status: Literal["pending", "applied"] = Field(
        description="`pending`: being applied now, or left part-way by a crash (its edges are rolled back by the "
        "next apply or undo; docs/concurrency.md)."
    )
    edges_in_graph: int
    stale: bool = Field(description="None of its edges is left (their tools were deleted or rewritten).")


class DependencyRunUndone(Result):
    run: str
    removed: int = Field(description="Inferred edges deleted.")


def catalog_tools(graph: Graph, catalog: str | None) -> dict[str, list[ToolInfo]]:
    """The tools of one catalog (or of every catalog), grouped by catalog."""
    out: dict[str, list[ToolInfo]] = {}
    for r in graph.read(query("deps_catalog_tools"), catalog=catalog):
        raw = json.loads(r["spec"]) if r["spec"] else {"name": r["name"]}
        tool = ToolInfo.from_raw(raw)
        tool.position = r.get("position")
        out.setdefault(r["catalog"] or "", []).append(tool)
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
    between: Callable[[str], None] | None = None,
) -> AppliedRun:
    """Write the proposals as one run in bounded transactions, recoverable at every point:

    1. the run node, `status: pending`, with the sources of its edges (after `recover`: a run left pending
       by an earlier crash is rolled back first);
    2. each batch of `batch_size` edges in its own transaction;
    3. the last transaction refreshes the closures of the sources AND sets `status: applied`, together.

    The last transaction is opened right after step 1 and holds the run node's lock throughout (the batches
    only read the node), so a concurrent `recover` waits for this apply instead of rolling it back; if Neo4j
    or this process dies, the lock goes with it and the next `recover` rolls the pending run back.
    `between(stage)` is called after the run node ("run"), after each batch ("batch") and just before the
    last COMMIT ("closure"): tests kill Neo4j there."""
    recover(graph)
    if not edges:
        return AppliedRun(run=run_id, applied=False, edges=0, message="nothing to apply: no new edges proposed")
    rows = [e.as_dict() for e in edges]
    sources = sorted({e.source for e in edges})
    run = {
        "id": run_id,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "catalog": catalog or "*",
        "method": method,
        "min_confidence": min_confidence,
        "proposed": len(edges),
        "notes": notes[:50],
        "edges": 0,
        "status": "pending",
        "sources": sources,
    }
    step = between or (lambda _stage: None)

    def first(tx) -> str | None:
        existing = tx.run(query("deps_run_get"), run_id=run_id).single()["run"]
        if existing is not None:
            return str(existing.get("status", "applied"))
        tx.run(query("deps_apply_run"), run=run).consume()
        return None

    def batch(part: list[dict]):
        def work(tx) -> int:
            record = tx.run(query("deps_apply_edges"), run_id=run_id, edges=part).single()
            if record is None:
                raise _rolled_back(run_id)
            return record["created"]

        return work

    def last(tx) -> int:
        if tx.run(query("deps_run_lock"), run_id=run_id).single()["run"] is None:
            raise _rolled_back(run_id)
        for i in range(0, len(rows), batch_size):
            serialized(graph, batch(rows[i : i + batch_size]))
            step("batch")
        write_lock.acquire(tx)
        closure.refresh(tx, sources)  # the precomputed expansion
        created = tx.run(query("deps_run_finish"), run_id=run_id).single()["edges"]
        step("closure")
        return created

    existing = serialized(graph, first)
    if existing is not None:
        state = "already applied" if existing == "applied" else "being applied by another command"
        return AppliedRun(run=run_id, applied=False, edges=0, message=f"run {run_id} is {state}")
    step("run")
    try:
        created = graph.transaction(last)
    except BaseException:
        try:  # at once if Neo4j still answers; else the next command that writes runs does it
            _remove(graph, run_id, pending_only=True)
        except Exception as exc:  # noqa: BLE001 - the original error is the one to report
            logger.warning("run %s left pending (rolled back by the next deps command): %s", run_id, exc)
        raise
    return AppliedRun(
        run=run_id, applied=True, edges=created, message=f"applied {run_id}: {created} inferred dependency edges"
    )


def _rolled_back(run_id: str) -> WriteConflictError:
    return WriteConflictError(f"run {run_id} was rolled back by a concurrent command while being applied; try again")


def delete_catalog_edges(graph: Graph, catalog: str) -> None:
    """Every dependency edge from tools of `catalog` (eval deps), closures refreshed."""

    def work(tx) -> None:
        tx.run(query("deps_delete_all_edges"), catalog=catalog).consume()
        closure.refresh(tx)

    serialized(graph, work)


def list_runs(graph: Graph) -> list[DependencyRun]:
    """Each run with `status` (`applied`, or `pending`: being applied now, or left by a crash until the next
    `recover`; listing does not recover: it is a read), `edges_in_graph`, and `stale` when none of its
    edges is left (their tools were deleted or rewritten): undo it to remove it from the list. The sources
    a pending run records for recovery are not listed."""
    runs = []
    for r in graph.read(query("deps_runs")):
        run = {k: v for k, v in r["run"].items() if k != "sources"}
        runs.append(
            DependencyRun(
                **run
                | {
                    "status": run.get("status", "applied"),  # runs applied before statuses existed
                    "edges_in_graph": r["edges_in_graph"],
                    "stale": bool(run.get("edges")) and r["edges_in_graph"] == 0,
                }
            )
        )
    return runs


def recover(graph: Graph) -> dict[str, int]:
    """Roll back every run left `pending` by a crash: its edges deleted, the closures of its sources
    refreshed and its node removed, in one transaction (a crash during it leaves the run pending, for the
    next call). A run whose apply is still alive is waited for, then left alone (it is applied by then).
    Every command that writes runs calls this first. Returns {run id: edges removed}."""
    removed = {}
    for r in graph.read(query("deps_runs_pending")):
        n = _remove(graph, r["id"], pending_only=True)
        if n is not None:
            logger.warning("rolled back dependency run %s left pending by a crash (%d edges)", r["id"], n)
            removed[r["id"]] = n
    return removed


def undo_run(graph: Graph, run_id: str) -> DependencyRunUndone:
    """Delete one run's edges and node, closures refreshed (pending runs are recovered first; undoing a
    pending run rolls it back)."""
    removed = recover(graph).get(run_id)
    if removed is None:
        removed = _remove(graph, run_id, pending_only=False)
    if removed is None:
        raise DependencyRunNotFoundError(run_id)
    return DependencyRunUndone(run=run_id, removed=removed)


def _remove(graph: Graph, run_id: str, *, pending_only: bool) -> int | None:
    """Delete a run (only if still pending, with pending_only): how many edges, None when there was none.
    Locks the run node BEFORE the write lock: while the apply that owns the run is alive this waits for it
    without holding the write lock its last transaction needs."""

    def work(tx) -> int | None:
        run = tx.run(query("deps_run_lock"), run_id=run_id).single()["run"]
        if run is None or (pending_only and run.get("status") != "pending"):
            return None
        write_lock.acquire(tx)
        sources = set(run.get("sources") or ()) | set(
            tx.run(query("deps_run_sources"), run_id=run_id).single()["sources"]
        )
        removed = tx.run(query("deps_undo"), run_id=run_id).single()["removed"]
        closure.refresh(tx, sorted(sources))
        return removed

    return graph.transaction(work)
