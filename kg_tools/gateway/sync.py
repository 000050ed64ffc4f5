"""An upstream's tool list -> the graph, through the one load path (`ingest.load_catalog`, differential).

catalog = the server key; each tool becomes `<server>__<tool>` with its MCP fields kept in the spec
(`input_schema`, `title`, `output_schema`, `annotations`) and `upstream: {server, tool}` for the way
back. Only tools whose spec changed are re-embedded and rewritten, tools gone upstream are deleted,
and dependency inference (offline) runs for the changed tools as one undoable run; an unchanged
list writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass, field

from kg_tools.catalog_store import delete_catalog
from kg_tools.core_tools import detect
from kg_tools.cypher import query
from kg_tools.deps import DEFAULT_MIN_CONFIDENCE
from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.offline import Examples
from kg_tools.deps.store import apply_run, catalog_edges, catalog_tools, recover, run_id_for
from kg_tools.errors import CatalogError, CatalogNotFoundError, ConfigurationError
from kg_tools.gateway.names import SEPARATOR, qualified_name
from kg_tools.ingest import LoadMode, load_catalog
from kg_tools.loaders.mcp_server import tool_entry
from kg_tools.tool_spec import split_name
from kg_tools.write_lock import serialized

logger = logging.getLogger("kg_tools.gateway")


def gateway_entry(server: str, tool) -> dict:
    """An MCP `Tool` as the catalog entry the gateway stores (the MCP importer's translation, renamed)."""

    entry = tool_entry(tool)
    entry["name"] = qualified_name(server, tool.name)
    if tool.title and "title" not in entry:
        entry["title"] = tool.title
    if getattr(tool, "output_schema", None) and "output_schema" not in entry:
        entry["output_schema"] = tool.output_schema
    annotations = getattr(tool, "annotations", None)
    if annotations is not None and "annotations" not in entry:
        entry["annotations"] = annotations.model_dump(mode="json", by_alias=True, exclude_none=True)
    entry["upstream"] = {"server": server, "tool": tool.name}
    return entry


def gateway_entries(server: str, tools) -> list[dict]:
    """The entries of an upstream's tools; a tool whose schema is malformed (`anyOf: 5`, kg_tools/loaders/
    json_schema.py check_schema) is left out with a warning: one odd tool never stops a server's sync."""
    out = []
    for tool in tools:
        try:
            out.append(gateway_entry(server, tool))
        except CatalogError as exc:
            logger.warning("sync %s: tool %r left out: %s", server, getattr(tool, "name", "?"), exc)
    return out


@dataclass
class SyncResult:
    server: str
    tools: int
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    embedded: int = 0
    inferred_edges: int = 0
    server_written: bool = False
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {
            "server": self.server,
            "tools": self.tools,
            "changed": len(self.changed),
            "removed": len(self.removed),
            "embedded": self.embedded,
            "inferred_edges": self.inferred_edges,
            "server_written": self.server_written,
            "seconds": round(self.seconds, 3),
        }


def sync_server(
    graph, embedder, server: str, entries: list[dict], *, info: dict | None = None, infer: bool = True
) -> SyncResult:
    """Differential load of one server's entries into catalog `server` (blocking; run off the event loop),
    then its (:Server) node (`info`: title, version, instructions from the handshake) when that changed."""

    t0 = time.perf_counter()
    loaded = load_catalog(
        graph, embedder, entries, server, LoadMode.SYNC, log=lambda line: logger.info("sync %s: %s", server, line)
    )
    result = SyncResult(server, loaded.tools, loaded.changed, loaded.removed, loaded.embedded)
    logger.debug(
        "sync %s: load %.3fs (embed %.3fs, write %.3fs)",
        server,
        time.perf_counter() - t0,
        loaded.embed_seconds,
        loaded.write_seconds,
    )
    if infer and loaded.changed:
        result.inferred_edges = infer_for(graph, embedder, server, set(loaded.changed))
    if loaded.changed or loaded.removed:
        detect_core(graph, server)
    if info is not None:
        result.server_written = write_server(
            graph, embedder, server, info, entries, force=bool(loaded.removed or loaded.changed)
        )
    result.seconds = time.perf_counter() - t0
    return result


def detect_core(graph, catalog: str) -> None:
    """`kg-tools core detect --catalog CATALOG --apply`: the catalog's generic utilities as :Core, which
    search_tools attaches when a request implies one (the `utilities` stage). A failure is logged."""
    try:
        detect(graph, catalog, apply=True)
    except Exception as exc:  # noqa: BLE001 - detection is an extra; the sync itself is done
        logger.warning("sync %s: core detection skipped: %s: %s", catalog, type(exc).__name__, exc)


def infer_for(graph, embedder, catalog: str, sources: set[str]) -> int:
    """Offline dependency inference for the changed tools of one catalog, applied as one run (undo with
    `kg-tools deps undo RUN`). A failure here is logged: the tools are synced either way."""

    try:
        recover(graph)  # a run left pending by a crash is rolled back before the graph is read
        tools = catalog_tools(graph, catalog).get(catalog, [])
        hand, existing = catalog_edges(graph, catalog)
        result = infer_catalog(
            tools,
            embedder,
            Examples(hand),
            existing=existing,
            min_confidence=DEFAULT_MIN_CONFIDENCE,
            sources=sources,
            catalog=catalog,
        )
        if not result.edges:
            return 0
        return apply_run(
            graph,
            run_id_for(catalog, result.method, result.edges),
            catalog,
            result.method,
            DEFAULT_MIN_CONFIDENCE,
            result.edges,
            result.notes,
        ).edges
    except Exception as exc:  # noqa: BLE001 - inference is an extra; the sync itself is done
        logger.warning("sync %s: dependency inference skipped: %s: %s", catalog, type(exc).__name__, exc)
        return 0


def server_document(server: str, info: dict, entries: list[dict]) -> str:
    """The text a server is embedded from: its title, instructions and its tools' names and titles
    (a tool's own name: `upstream.tool`, else the part of `server__tool` after the separator)."""

    def own_name(entry: dict) -> str:
        return (entry.get("upstream") or {}).get("tool") or entry["name"].split(SEPARATOR, 1)[-1]

    tools = ", ".join(e.get("title") or split_name(own_name(e)) for e in entries)
    parts = [info.get("title") or split_name(server), (info.get("instructions") or "").strip(), f"Tools: {tools}"]
    return ". ".join(p for p in parts if p)[:4000]


def write_server(graph, embedder, server: str, info: dict, entries: list[dict], *, force: bool = False) -> bool:
    """(:Server)-[:PROVIDES]->(:Tool) for one upstream; nothing written when its state is unchanged."""

    document = server_document(server, info, entries)
    state = hashlib.sha256(json.dumps([info, document], sort_keys=True).encode()).hexdigest()[:16]
    stored = graph.read(query("gateway_server_state"), name=server)[0]
    if not force and stored["state_hash"] == state and stored["embedding_model"] == embedder.name:
        return False
    row = {
        "name": server,
        "title": info.get("title"),
        "version": info.get("version"),
        "instructions": info.get("instructions"),
        "embedding": embedder.embed([document])[0].tolist(),
        "embedding_model": embedder.name,
        "state_hash": state,
    }
    graph.write(query("gateway_server_upsert"), server=row)
    return True


def claim_servers(graph, gateway: str, servers: set[str]) -> None:
    """Record that gateway `gateway` serves `servers` (each (:Server) node's `gateways`), in one write-lock
    transaction. A server key that names a catalog no gateway owns (a load, import or PUT) is refused
    before anything is written: the gateway would replace that catalog's tools with its own."""

    def work(tx) -> None:
        rows = [r.data() for r in tx.run(query("gateway_claim_check"), servers=sorted(servers))]
        taken = [r for r in rows if (r["catalog"] or r["tools"]) and not r["server"]]
        if taken:
            raise ConfigurationError(
                f"gateway {gateway!r}: server key(s) "
                + ", ".join(f"{r['key']!r} (catalog of {r['tools']} tool(s), {r['kind'] or 'loaded'})" for r in taken)
                + " already name a catalog that is not a gateway's; nothing was changed. Rename the server key in"
                " the config (it names the catalog and prefixes its tools), or delete that catalog first"
                " (`kg-tools catalogs delete NAME`)"
            )
        tx.run(query("gateway_claim"), gateway=gateway, servers=sorted(servers)).consume()

    serialized(graph, work)


def forget_servers(graph, gateway: str, keep: set[str]) -> list[str]:
    """Servers this gateway claimed before that are no longer in its config: it lets go of them
    (`gateway_release`); a server no other gateway serves then goes with its pins, its catalog through the catalog
    delete (`kg_tools.catalog_store.delete_catalog`: bounded batches, with its inference and merge runs, other
    catalogs untouched). A server another gateway still lists stays. Returns the servers let go of."""

    gone = [r["name"] for r in graph.read(query("gateway_server_names"), gateway=gateway) if r["name"] not in keep]
    for name in gone:
        left = graph.write(query("gateway_release"), name=name, gateway=gateway)
        others = left[0]["left"] if left else []
        if others:
            logger.info("server %s left gateway %s's config; still served by %s", name, gateway, ", ".join(others))
            continue
        try:
            deleted = delete_catalog(graph, name).tools
        except CatalogNotFoundError:  # a server that never listed a tool
            deleted = 0
        logger.warning("server %s left the config: its catalog (%d tools) and pins were deleted", name, deleted)
    return gone
