"""Catalogs as things you can see and remove: `kg-tools catalogs list|delete`, GET/DELETE /v1/catalogs.

A catalog is the `catalog` name on its tools plus a `(:Catalog {name, source, created, last_load,
last_load_kind})` node that every load, sync, import and PUT writes in its own transaction
(`record`). Catalogs loaded before that node existed are listed from their tools alone.

`delete_catalog` removes one catalog in bounded transactions: first it cuts the catalog off from
every other catalog (dependency edges into it, MERGED_INTO across the boundary) and recomputes the
precomputed closures of the other catalogs' tools that reached it, in ONE transaction, so no tool
outside the catalog ever lists a deleted tool; then the relationships of its tools go in batches of
`edge_batch_size` (a 100,000-tool catalog's DETACH DELETE with its edges ran out of Neo4j's transaction
memory at the default 1 GB heap), then its tools in batches of `batch_size`; last its dependency
inference runs, merge runs and node. Interrupted, it leaves the rest of the catalog as
it was (still listed) and running it again finishes the job. Other catalogs' tools are never deleted.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import Field

from kg_tools import closure
from kg_tools.cypher import query
from kg_tools.errors import CatalogNotFoundError, GatewayCatalogError
from kg_tools.graph import Graph
from kg_tools.results import Result
from kg_tools.write_lock import serialized

DELETE_BATCH = 5000  # tools per delete transaction (their relationships are gone by then)
EDGE_DELETE_BATCH = 10_000  # relationships per delete transaction, before the tools
KINDS = ("load", "sync", "import", "put")


class CatalogInfo(Result):
    name: str
    tools: int = Field(description="Tools of the catalog.")
    edges: int = Field(description="Dependency edges from its tools (hand-written and inferred).")
    source: str | None = Field(None, description="Where its last load came from (files, MCP server, import, put).")
    created: str | None = Field(None, description="When it was first loaded (ISO 8601, UTC).")
    last_load: str | None = Field(None, description="When its last load, sync, import or PUT was written.")
    last_load_kind: Literal["load", "sync", "import", "put"] | None = None
    version: int | None = Field(None, description="The catalog version readers see (null before any versioned load).")
    pending_version: int | None = Field(
        None, description="The version a running load is writing, not visible yet (null: no load running)."
    )


class CatalogDeleted(Result):
    catalog: str
    tools: int = Field(description="Tools deleted.")
    edges: int = Field(description="Dependency edges from those tools deleted with them.")
    dependency_runs: int = Field(description="Dependency inference runs of the catalog deleted.")
    merge_runs: int = Field(description="Merge runs of the catalog deleted.")
    detached_edges: int = Field(description="Edges from other catalogs' tools into it removed first.")
    transactions: int = Field(description="Bounded write transactions the delete took (relationships, then tools).")


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def record(tx, catalog: str, *, source: str | None = None, kind: str = "load") -> None:
    """Inside a writing transaction: create or update the catalog's node (source, last load)."""
    if kind not in KINDS:
        raise ValueError(f"catalog write kind must be one of {KINDS}, got {kind!r}")
    tx.run(query("catalog_record"), catalog=catalog, source=source, kind=kind, now=now()).consume()


def gateway_owners(graph: Graph, catalog: str) -> list[str]:
    """The gateways that serve `catalog` (its (:Server) node's `gateways`; none: not a gateway's)."""
    return graph.read(query("gateway_catalog_owners"), catalog=catalog)[0]["gateways"]


def check_writable(graph: Graph, catalog: str) -> None:
    """REST and CLI writes (load, import, PUT, DELETE of a tool or catalog) to a catalog a gateway serves
    are refused (GatewayCatalogError): its sync owns it. A server no gateway lists (its gateways let go,
    or a gateway before gateway names wrote it) does not protect its catalog."""
    gateways = gateway_owners(graph, catalog)
    if gateways:
        raise GatewayCatalogError(catalog, gateways)


def list_catalogs(graph: Graph) -> list[CatalogInfo]:
    """Every catalog, by name. `version`: the catalog version readers see (None before any versioned load);
    `pending_version`: the version a running load is writing (kg_tools/staged_load.py), else None.
    `tools` and `edges` count the live version only."""
    out: dict[str, dict] = {}
    for r in graph.read(query("catalogs_nodes")):
        c = r["catalog"]
        out[c["name"]] = _info(c["name"]) | {k: c.get(k) for k in ("source", "created", "last_load", "last_load_kind")}
        out[c["name"]].update(version=c.get("current"), pending_version=c.get("pending"))
    for r in graph.read(query("catalogs_tool_counts")):
        if r["name"] is None:
            continue
        out.setdefault(r["name"], _info(r["name"])).update(tools=r["tools"], edges=r["edges"])
    return [CatalogInfo(**out[name]) for name in sorted(out)]


def _info(name: str) -> dict:
    return {
        "name": name,
        "tools": 0,
        "edges": 0,
        "source": None,
        "created": None,
        "last_load": None,
        "last_load_kind": None,
        "version": None,
        "pending_version": None,
    }


def delete_catalog(
    graph: Graph,
    catalog: str,
    batch_size: int = DELETE_BATCH,
    log=lambda *_: None,
    edge_batch_size: int = EDGE_DELETE_BATCH,
) -> CatalogDeleted:
    """Delete one catalog: its tools and their edges, its inference and merge runs, its node (see the
    module docstring). `transactions`: the write transactions that deleted something."""
    if batch_size < 1 or edge_batch_size < 1:
        raise ValueError("batch_size and edge_batch_size must be >= 1")
    state = graph.read(query("catalog_get"), catalog=catalog)[0]
    if state["catalog"] is None and not state["tools"]:
        raise CatalogNotFoundError(catalog)
    check_writable(graph, catalog)  # a gateway's catalog goes when its gateways let go of it

    def detach(tx) -> tuple[int, int]:
        row = tx.run(query("catalog_detach"), catalog=catalog).single()
        closure.refresh(tx, targets=sorted({(c, n) for c, n in row["affected"]}))
        return row["incoming"], row["edges"]

    detached, edges = serialized(graph, detach)  # the write lock, like every closure-refreshing write
    transactions = 1
    relationships = 0
    while n := graph.write(query("catalog_delete_edges_batch"), catalog=catalog, limit=edge_batch_size)[0][
        "relationships"
    ]:
        relationships += n
        transactions += 1
        log(f"deleted {relationships} relationships of catalog {catalog!r}")
    tools = 0
    while n := graph.write(query("catalog_delete_batch"), catalog=catalog, limit=batch_size)[0]["tools"]:
        tools += n
        transactions += 1
        log(f"deleted {tools} tools of catalog {catalog!r}")
    runs = graph.write(query("catalog_delete_finish"), catalog=catalog)[0]
    return CatalogDeleted(
        catalog=catalog,
        tools=tools,
        edges=edges,
        dependency_runs=runs["dependency_runs"],
        merge_runs=runs["merge_runs"],
        detached_edges=detached,
        transactions=transactions + 1,
    )
