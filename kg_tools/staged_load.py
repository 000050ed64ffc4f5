"""Large loads in bounded memory: a catalog's new tools are written under a new catalog VERSION in
bounded transactions, then switched in by one small transaction.

    begin      claim version v = last + 1 on the catalog's node (`pending`); refuse while another
               load of the catalog is running (its last batch younger than STALE_SECONDS)
    stage_*    new tools, their outgoing edges and their precomputed closures, each batch its own
               transaction, every tool marked `version: v` (readers skip tools whose version is newer
               than their catalog's `current`: cypher/seeds_canonical.cypher, get_tool, list_tools)
    switch     ONE transaction: the changed tools and edges of existing tools, deletions (--replace),
               the closures they affect, the catalog's metadata, and `current = v`
    settle     after the switch, the version marks are removed in batches (visible either way) so the
               readers' check is free in the steady state
    discard    on any failure before the switch: the tools of v are deleted in batches and the
               pending version released; the old version stays current. A load that died (killed)
               is cleaned up the same way by the next load of the catalog (`prepare`).

Only tools that did not exist are staged: a changed tool keeps its node (edges, merges, questions
and closures of other tools point at it) and is rewritten in the switch transaction, so the switch
is small when few existing tools change (a sync, or a first load of any size).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

from neo4j.exceptions import ConstraintError

from kg_tools import closure
from kg_tools.cypher import query
from kg_tools.errors import CatalogBusyError, DanglingReferenceError, NameCollisionError
from kg_tools.graph import Graph

STALE_SECONDS = 600  # a pending version with no batch for this long belongs to a load that died
DISCARD_BATCH = 2000  # tools deleted per transaction when a version is given up
SETTLE_BATCH = 10000  # version marks removed per transaction after a switch


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _age_seconds(stamp: str | None) -> float:
    if not stamp:
        return float("inf")
    return time.time() - datetime.fromisoformat(stamp).timestamp()


def prepare(graph: Graph, catalog: str) -> None:
    """Before a load reads the graph: refuse while another load of the catalog runs; remove what a
    load that died left behind (tools of a version that never became current)."""
    state = graph.read(query("version_state"), catalog=catalog)[0]
    if state["pending"] is not None and _age_seconds(state["pending_at"]) < STALE_SECONDS:
        raise CatalogBusyError(
            f"catalog {catalog!r} is being loaded by another writer (version {state['pending']}, last batch "
            f"{state['pending_at']}); try again when it has finished (a load that died is cleaned up "
            f"after {STALE_SECONDS // 60} minutes)"
        )
    if state["pending"] is not None or state["leftovers"]:
        _discard(graph, catalog, state["current"], state["pending"], drop_new=False)


def begin(graph: Graph, catalog: str) -> tuple[int, bool]:
    """Claim the next version of `catalog`. Returns (version, whether the catalog node is new)."""

    def work(tx):
        row = tx.run(query("version_begin"), catalog=catalog, now=_now()).single()
        if row["pending"] is not None and _age_seconds(row["pending_at"]) < STALE_SECONDS:
            raise CatalogBusyError(
                f"catalog {catalog!r} is being loaded by another writer "
                f"(version {row['pending']}); try again when it has finished"
            )
        version = max(row["seq"], row["current"], row["pending"] or 0) + 1
        tx.run(query("version_claim"), catalog=catalog, version=version, now=_now()).consume()
        return version, row["new"]

    return graph.transaction(work)


def _batches(items: list, size: int):
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _lost(catalog: str, version: int) -> CatalogBusyError:
    return CatalogBusyError(
        f"catalog {catalog!r}: version {version} was taken over by another load "
        f"(this one had stalled for over {STALE_SECONDS // 60} minutes)"
    )


def stage(
    graph: Graph,
    catalog: str,
    version: int,
    rows: list[dict],
    edges: list[dict],
    batch_size: int,
    log: Callable[[str], None],
) -> None:
    """Write new tools, their edges and their closures under `version`, one transaction per batch."""
    from kg_tools.ingest import wire  # noqa: PLC0415 - cycle: ingest.py imports this module

    done = 0
    for batch in _batches(rows, batch_size):
        try:
            written = graph.write(
                query("version_stage_tools"),
                catalog=catalog,
                version=version,
                rows=[{**r, "embedding": None} for r in batch],  # the vectors follow in larger batches
                now=_now(),
            )[0]["written"]
        except ConstraintError as exc:
            raise NameCollisionError(
                f"a tool name of catalog {catalog!r} was taken by another write while loading; nothing written",
                [str(exc.message or exc)],
            ) from exc
        if written != len(batch):
            raise _lost(catalog, version)
        done += written
        log(f"staged {done}/{len(rows)} tools of catalog {catalog!r} (version {version}, not visible yet)")
    done = 0
    for batch in _batches(edges, batch_size):
        written = graph.write(
            query("version_stage_dependencies"), catalog=catalog, version=version, edges=batch, now=_now()
        )[0]["written"]
        if written != len(batch):
            raise DanglingReferenceError(
                f"a dependency target of catalog {catalog!r} was deleted while loading; nothing written",
                [f"{len(batch) - written} edge(s) of a batch"],
            )
        done += written
    if edges:
        log(f"staged {done} dependency edges of catalog {catalog!r}")
    edge_rows, merged_into = closure.read_graph(graph.read)
    closure_rows = closure.compute_keys(edge_rows, merged_into, [(catalog, r["name"]) for r in rows])
    del edge_rows
    for batch in _batches(closure_rows, closure.WRITE_BATCH):
        written = graph.write(
            query("version_stage_closures"), catalog=catalog, version=version, rows=batch, now=_now()
        )[0]["written"]
        if written != len(batch):
            raise _lost(catalog, version)
    log(f"staged {len(closure_rows)} closures of catalog {catalog!r}")
    vectors = [r for r in rows if r.get("embedding") is not None]
    for batch in _batches(vectors, graph.settings.vector_write_batch_size):  # last, larger batches: see settings
        payload = [{"name": r["name"], "embedding": r["embedding"]} for r in batch]
        written = graph.write(
            query("version_stage_embeddings"), catalog=catalog, version=version, rows=wire(payload), now=_now()
        )[0]["written"]
        if written != len(batch):
            raise _lost(catalog, version)


def switch(tx, catalog: str, version: int) -> None:
    """Inside the switch transaction, after its writes: make `version` current."""
    if tx.run(query("version_switch"), catalog=catalog, version=version).single() is None:
        raise _lost(catalog, version)


def settle(graph: Graph, catalog: str, version: int) -> None:
    """After the switch: remove the version marks in batches (readers then skip the version check)."""
    while graph.write(query("version_settle_batch"), catalog=catalog, current=version, limit=SETTLE_BATCH)[0][
        "settled"
    ]:
        pass


def discard(graph: Graph, catalog: str, version: int, drop_new: bool) -> None:
    """Give up `version` (a failed load): its tools are deleted in batches, the old version stays current."""
    current = graph.read(query("version_state"), catalog=catalog)[0]["current"]
    _discard(graph, catalog, current, version, drop_new)


def _discard(graph: Graph, catalog: str, current: int, version: int | None, drop_new: bool) -> None:
    while graph.write(query("version_discard_batch"), catalog=catalog, current=current, limit=DISCARD_BATCH)[0][
        "deleted"
    ]:
        pass
    if version is not None:
        graph.write(query("version_release"), catalog=catalog, version=version, drop_new=drop_new)
