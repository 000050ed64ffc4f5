"""Write a validated catalog into Neo4j: embed changed tools, then UNWIND batches in ONE transaction.

Re-running a load gives the same graph; a failure anywhere rolls the whole load back. `write_tools`
is the one write path for tools: bulk loads and the REST PUT both use it. It holds the graph's write
lock (kg_tools/write_lock.py), so the names it takes over and the closures it recomputes are those of
the committed graph, not of a snapshot a concurrent writer is changing (docs/concurrency.md).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from kg_tools import catalog_versions, catalogs, closure
from kg_tools.catalog import (
    CatalogReport,
    ToolSpec,
    ValidatedCatalog,
    check_catalog_name,
    parameter_text,
    spec_hash,
    split_name,
    tool_document,
    validate_catalog,
)
from kg_tools.cypher import query
from kg_tools.embeddings import Embedder, PassageEmbedder
from kg_tools.errors import DanglingReferenceError, NameCollisionError, ToolConflictError
from kg_tools.graph import Graph
from kg_tools.schema import apply_schema
from kg_tools.vector_models import mismatch
from kg_tools.write_lock import serialized

DEFAULT_CATALOG = "api"  # the catalog of a tool written without one (a PUT without ?catalog)


@dataclass
class LoadResult:
    catalog: str
    tools: int
    edges: int
    embedded: int
    embed_seconds: float
    write_seconds: float
    report: CatalogReport = field(default_factory=CatalogReport)
    warnings: list[str] = field(default_factory=list)
    # A differential load: the tools written (new or changed) and deleted; nothing written when both are empty.
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    # How it was written, for the load's message: "in one transaction" or "under catalog version 3 in
    # bounded transactions ..."; None: nothing changed, nothing written.
    written_how: str | None = "in one transaction"

    def as_dict(self) -> dict:
        return {
            "catalog": self.catalog,
            "tools": self.tools,
            "edges": self.edges,
            "embedded": self.embedded,
            "embed_seconds": round(self.embed_seconds, 3),
            "write_seconds": round(self.write_seconds, 3),
        }


def chunks(items: list, size: int) -> Iterable[list]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def wire(rows: list[dict]) -> list[dict]:
    """Tool rows as sent to Neo4j: embeddings (kept as float32 arrays until now: 100,000 tools as
    Python float lists took over 1 GB) as lists."""
    return [{**r, "embedding": r["embedding"].tolist()} if hasattr(r.get("embedding"), "tolist") else r for r in rows]


def node_facts(spec: ToolSpec) -> dict:
    """What real catalogs say about a tool, as node properties Browser and Cypher can read (the
    full output schema, links and annotations stay in `spec`)."""
    hints = spec.annotations or None
    return {
        "title": spec.title,
        "http_method": spec.http.method if spec.http else None,
        "http_path": spec.http.path if spec.http else None,
        "tags": spec.http.tags if spec.http and spec.http.tags else None,
        "deprecated": spec.http.deprecated if spec.http else None,
        "has_output_schema": spec.output_schema is not None,
        "read_only_hint": hints.readOnlyHint if hints else None,
        "destructive_hint": hints.destructiveHint if hints else None,
        "idempotent_hint": hints.idempotentHint if hints else None,
        "open_world_hint": hints.openWorldHint if hints else None,
    }


def tool_row(spec: ToolSpec, raw: dict, catalog: str | None) -> dict:
    """A tool's node properties; catalog None: write_tools keeps the tool's catalog (a PUT)."""
    return {
        "name": spec.name,
        "description": spec.description,
        "func_type": spec.func_type,
        "name_words": split_name(spec.name),
        "param_text": parameter_text(spec),
        "spec": json.dumps(raw, ensure_ascii=False),
        "spec_hash": spec_hash(raw),
        "catalog": catalog,
        "field": raw.get("field"),
        **node_facts(spec),
        "embedding": None,
        "embedding_model": None,
    }


def load_catalog(
    graph: Graph,
    embedder: PassageEmbedder,
    raw_tools: list,
    catalog: str,
    *,
    strict: bool = False,
    replace: bool = False,
    replace_all: bool = False,
    takeover: bool = False,
    reembed: bool = False,
    batch_size: int = 500,
    log: Callable[[str], None] = print,
    show_progress: bool = False,
    source: str | None = None,
    kind: str = "load",
    differential: bool = False,
) -> LoadResult:
    """Validate, embed what changed, write in one transaction; more than `batch_size` new tools are
    written under a new catalog version in bounded transactions and switched in by one
    (kg_tools/catalog_versions.py, docs/scale.md).

    replace: this catalog's tools that the load does not contain are deleted (other catalogs are
    untouched); replace_all: every tool, merge run and question is deleted first (eval, bench; with
    more than `batch_size` tools that delete runs first in bounded batches, so it is not undone if
    the load then fails).
    A tool name that belongs to another catalog is an error listing every such name, unless
    takeover moves those tools into this catalog. Only new and changed tools (spec, catalog or
    embedding) and the edges that need them are written; a load that changes nothing writes nothing.
    `source` and `kind` (load, sync, import) are stored on the catalog's node (kg_tools/catalogs.py).

    differential (the gateway's sync; implies replace): only tools whose spec (or embedding) changed are
    embedded and written and this catalog's tools not in the load deleted; when nothing changed,
    nothing is written at all."""
    catalog = check_catalog_name(catalog)  # every path: CLI, API, a file's stem, an MCP server's name
    replace = replace or differential
    if not replace_all:
        catalog_versions.prepare(graph, catalog)  # another load running? leftovers of one that died?
    existing = {r["name"]: r for r in graph.read(query("tool_state"))}
    known_catalog = graph.read(query("catalog_get"), catalog=catalog)[0]["catalog"] is not None
    if replace_all:
        existing = {}
    if replace:  # this catalog's tools are rewritten or deleted: only other catalogs count as known
        known = {n for n, r in existing.items() if r["catalog"] != catalog}
    else:
        known = set(existing)
    validated = validate_catalog(raw_tools, strict=strict, known_names=known)
    for w in validated.report.warnings:
        log(f"warning: {w}")
    taken = sorted(s.name for s in validated.specs if s.name in existing and existing[s.name]["catalog"] != catalog)
    if taken and not takeover:  # early, before embedding; write_tools checks again under the write lock
        raise name_collision(catalog, {n: existing[n]["catalog"] for n in taken})
    for n in taken:
        log(f"warning: --takeover: {n} moves from catalog {existing[n]['catalog']!r} to {catalog!r}")
    rows = [tool_row(s, r, catalog) for s, r in zip(validated.specs, validated.raw)]
    if differential:
        return _load_differential(
            graph,
            embedder,
            validated,
            rows,
            existing,
            catalog,
            batch_size,
            show_progress,
            (catalog, source, "sync" if kind == "load" else kind),
            takeover,
            log,
        )
    # Schema first: fails on a dimension mismatch before anything is embedded or written.
    apply_schema(graph, embedder.dimension, embedder.name)
    check_other_vectors(existing, {s.name for s in validated.specs}, catalog if replace else None, embedder.name)
    # --replace keeps the catalog's unchanged tools (only those the load lacks are deleted): no re-embedding
    embed_seconds, to_embed = _embed_changed(
        embedder, validated, rows, existing, replace_all or reembed, show_progress, use_cache=not reembed
    )
    edges = [e.as_row() for e in validated.edges]
    # What must be written: new or changed tools, and edges from them or to a tool that is new.
    new = {r["name"] for r in rows if r["name"] not in existing}
    # a tool whose hand-written edges in the graph differ from the file's (deleted or added outside a load)
    wanted = Counter(e["source"] for e in edges)
    write = [
        r
        for r in rows
        if r["embedding"] is not None
        or r["name"] in new
        or existing[r["name"]]["catalog"] != catalog
        or existing[r["name"]].get("hand_edges", 0) != wanted.get(r["name"], 0)
    ]
    written = {r["name"] for r in write}
    edges = [e for e in edges if e["source"] in written or e["target"] in new]
    loaded = {r["name"] for r in rows}
    stale = replace and any(r["catalog"] == catalog and n not in loaded for n, r in existing.items())
    t0 = time.perf_counter()
    meta = (catalog, source, kind)
    replace_catalog = catalog if replace else None
    how: str | None = "in one transaction"
    if len(new) > batch_size:  # more than one batch of new tools: bounded transactions
        if replace_all:
            delete_everything(graph, log)
        version = _write_versioned(
            graph,
            catalog,
            write,
            edges,
            new,
            batch_size=batch_size,
            replace_catalog=replace_catalog,
            meta=meta,
            keep_names=sorted(loaded),
            log=log,
            takeover=takeover,
        )
        how = (
            f"under catalog version {version} in bounded transactions of at most {batch_size} tools, "
            f"switched in by one transaction"
        )
    elif write or edges or stale or replace_all or not known_catalog:
        write_tools(
            graph,
            write,
            edges,
            batch_size=batch_size,
            replace_catalog=replace_catalog,
            replace_all=replace_all,
            catalog=meta,
            keep_names=sorted(loaded),
            takeover=takeover,
            unchanged=[] if replace_all else sorted(loaded - written),
        )
    else:
        how = None
    return LoadResult(
        catalog,
        len(rows),
        len(validated.edges),
        to_embed,
        embed_seconds,
        time.perf_counter() - t0,
        validated.report,
        validated.report.warnings,
        written_how=how,
    )


def _write_versioned(
    graph: Graph,
    catalog: str,
    rows: list[dict],
    edges: list[dict],
    new: set[str],
    *,
    batch_size: int,
    replace_catalog: str | None,
    meta: tuple,
    keep_names: list[str],
    log: Callable[[str], None],
    takeover: bool = False,
) -> int:
    """A large load (kg_tools/catalog_versions.py): the new tools, their edges and closures in bounded
    transactions under a new catalog version, then ONE transaction with the changed tools, the
    deletions and the switch. Any failure before the switch deletes the new version again. Returns
    the version."""
    staged_rows = [r for r in rows if r["name"] in new]
    staged_edges = [e for e in edges if e["source"] in new]
    version, created = catalog_versions.begin(graph, catalog)
    try:
        catalog_versions.stage(graph, catalog, version, staged_rows, staged_edges, batch_size, log)
        write_tools(
            graph,
            [r for r in rows if r["name"] not in new],
            [e for e in edges if e["source"] not in new],
            batch_size=batch_size,
            replace_catalog=replace_catalog,
            catalog=meta,
            keep_names=keep_names,
            switch_to=version,
            also_check=sorted({e["target"] for e in staged_edges}),
            takeover=takeover,
            unchanged=sorted(set(keep_names) - {r["name"] for r in rows}),
        )
    except BaseException:
        try:
            catalog_versions.discard(graph, catalog, version, drop_new=created)
        except Exception as exc:  # noqa: BLE001 - the load's own error is the one to report
            log(
                f"warning: version {version} of catalog {catalog!r} was not cleaned up ({exc}); "
                f"the next load of {catalog!r} removes it"
            )
        raise
    catalog_versions.settle(graph, catalog, version)
    return version


def check_other_vectors(existing: dict, loaded: set[str], replaced_catalog: str | None, model: str) -> None:
    """Refuse a load that would leave the graph's vectors from two models (same dimension, so the
    index check cannot see it): tools this load keeps as they are must have been embedded by `model`."""
    others: dict[str, int] = {}
    for name, row in existing.items():
        if name in loaded or row["catalog"] == replaced_catalog or not row["has_embedding"]:
            continue
        if row["embedding_model"] != model:
            others[str(row["embedding_model"])] = others.get(str(row["embedding_model"]), 0) + 1
    if others:
        raise mismatch(others, model)


def _load_differential(
    graph,
    embedder,
    validated: ValidatedCatalog,
    rows,
    existing,
    catalog: str,
    batch_size: int,
    show_progress: bool,
    meta: tuple,
    takeover: bool,
    log: Callable[[str], None],
) -> LoadResult:
    names = [r["name"] for r in rows]
    stale = set(_stale(embedder, rows, existing, force=False))
    changed = [i for i, r in enumerate(rows) if i in stale or existing[r["name"]]["catalog"] != catalog]
    removed = sorted({n for n, r in existing.items() if r["catalog"] == catalog} - set(names))
    result = LoadResult(
        catalog,
        len(rows),
        len(validated.edges),
        0,
        0.0,
        0.0,
        validated.report,
        validated.report.warnings,
        [rows[i]["name"] for i in changed],
        removed,
    )
    if not changed and not removed:
        return result
    apply_schema(graph, embedder.dimension, embedder.name)
    check_other_vectors(existing, set(names), catalog, embedder.name)
    t0 = time.perf_counter()
    vectors = embedder.embed([tool_document(validated.specs[i]) for i in changed], show_progress=show_progress)
    for i, vec in zip(changed, vectors):
        rows[i]["embedding"] = vec.tolist()
        rows[i]["embedding_model"] = embedder.name
    result.embedded, result.embed_seconds = len(changed), time.perf_counter() - t0
    written = set(result.changed)
    write = [rows[i] for i in changed]
    edges = [e.as_row() for e in validated.edges if e.source in written]
    new = {r["name"] for r in write if r["name"] not in existing}
    t0 = time.perf_counter()
    if len(new) > batch_size:  # e.g. the first sync of a large upstream: bounded, then switched in
        version = _write_versioned(
            graph,
            catalog,
            write,
            edges,
            new,
            batch_size=batch_size,
            replace_catalog=catalog,
            meta=meta,
            keep_names=names,
            log=log,
            takeover=takeover,
        )
        result.written_how = f"under catalog version {version} in bounded transactions of at most {batch_size} tools"
    else:
        write_tools(
            graph,
            write,
            edges,
            batch_size=batch_size,
            replace_catalog=catalog,
            keep_names=names,
            catalog=meta,
            takeover=takeover,
        )
    result.write_seconds = time.perf_counter() - t0
    return result


def _stale(embedder, rows, existing, force: bool) -> list[int]:
    """Rows whose stored node is missing, has another spec, or lacks this embedder's embedding."""
    return [
        i
        for i, row in enumerate(rows)
        if force
        or row["name"] not in existing
        or existing[row["name"]]["spec_hash"] != row["spec_hash"]
        or existing[row["name"]]["embedding_model"] != embedder.name
        or not existing[row["name"]]["has_embedding"]
    ]


def _embed_changed(
    embedder, validated: ValidatedCatalog, rows, existing, force: bool, show_progress: bool, use_cache: bool
):
    todo = _stale(embedder, rows, existing, force)
    t0 = time.perf_counter()
    vectors = embedder.embed(
        [tool_document(validated.specs[i]) for i in todo], show_progress=show_progress, use_cache=use_cache
    )
    for i, vec in zip(todo, vectors):
        rows[i]["embedding"] = vec  # a float32 row; a list of Python floats only per batch (`wire`)
        rows[i]["embedding_model"] = embedder.name
    return time.perf_counter() - t0, len(todo)


def name_collision(catalog: str, taken: dict[str, str], how: str = "load with --takeover") -> NameCollisionError:
    """The error for tools of `catalog` whose names belong to other catalogs (`taken`: name -> owner)."""
    return NameCollisionError(
        f"{len(taken)} tool name(s) of catalog {catalog!r} already belong to another catalog; nothing written "
        f"(rename them, or {how} to move them into {catalog!r})",
        [f"{n} (catalog {owner!r})" for n, owner in sorted(taken.items())],
    )


def write_tools(
    graph: Graph,
    rows: list[dict],
    edges: list[dict],
    *,
    batch_size: int = 500,
    replace_catalog: str | None = None,
    replace_all: bool = False,
    keep_names: list[str] | None = None,
    takeover: bool = False,
    takeover_how: str = "load with --takeover",
    catalog: tuple[str, str | None, str] | None = None,
    switch_to: int | None = None,
    also_check: Sequence[str] = (),
    unchanged: Sequence[str] = (),
) -> dict[str, str | None]:
    """The one write path for tools (`kg-tools load` and `PUT /v1/tools/{name}`), in ONE transaction
    that holds the write lock: optional deletion (a catalog's tools not in `rows`, or everything), the
    nodes (UNWIND batches), their outgoing hand-written dependency edges replaced (unchanged edges kept
    as they are), the closures they affect. `keep_names`: with replace_catalog, the catalog's tools that
    stay although not in `rows` (a differential write; default: only `rows`). A row's catalog None
    keeps the tool's catalog (DEFAULT_CATALOG for a new tool). Checked under the lock, so two
    concurrent writers cannot both pass: a name of another catalog is a NameCollisionError unless
    `takeover`; a dependency target that does not exist (e.g. deleted concurrently) is a
    DanglingReferenceError. Either rolls everything back. Returns each written tool's catalog before
    the write (None: the tool was created). `catalog` (name, source, kind) is recorded on the
    catalog's node. `switch_to`: this is the switch transaction of a versioned load
    (kg_tools/catalog_versions.py), whose staged edges' targets `also_check` must still exist.
    `unchanged`: tools of the load not rewritten; one deleted meanwhile by another writer rolls back."""
    if switch_to is not None and catalog is None:
        raise ValueError("write_tools: switch_to needs the catalog it switches")
    switch = (catalog[0], switch_to) if catalog is not None and switch_to is not None else None
    names = [r["name"] for r in rows]
    sources = sorted({e["source"] for e in edges} - set(names))
    targets = sorted({e["target"] for e in edges} | set(also_check))
    keep: dict[str, list] = {}
    for e in edges:
        keep.setdefault(e["source"], []).append([e["type"], e["target"], e["ord"]])

    def work(tx) -> dict[str, str | None]:
        before = {} if replace_all else _catalogs(tx, names, batch_size)
        written = [{**r, "catalog": r["catalog"] or before.get(r["name"]) or DEFAULT_CATALOG} for r in rows]
        taken = {r["name"]: before[r["name"]] for r in written if before.get(r["name"], r["catalog"]) != r["catalog"]}
        if taken and not takeover:
            raise name_collision(written[0]["catalog"], taken, takeover_how)
        gone: list[str] = []
        if replace_all:
            tx.run(query("delete_all_tools")).consume()
        elif replace_catalog is not None:
            gone = tx.run(
                query("delete_catalog_tools"),
                catalog=replace_catalog,
                keep=names if keep_names is None else sorted(set(keep_names) | set(names)),
            ).single()["gone"]
        for batch in chunks(written, batch_size):
            tx.run(query("upsert_tools"), rows=wire(batch)).consume()
        for batch in chunks(names, batch_size):
            tx.run(
                query("delete_outgoing_dependencies"), names=batch, keep={n: keep[n] for n in batch if n in keep}
            ).consume()
        for batch in chunks(edges, batch_size):
            tx.run(query("create_dependencies"), edges=batch).consume()
        missing = tx.run(query("missing_dependency_targets"), targets=targets).single()["missing"]
        if missing:  # raising rolls the transaction back
            by_target: dict[str, str] = {}
            for e in edges:
                by_target.setdefault(e["target"], e["source"])
            raise DanglingReferenceError(
                f"{len(missing)} dependency target(s) do not exist; nothing written",
                [f"dangling dependency target: {by_target[m]} -> {m} ({m!r} is not a tool)" for m in missing],
            )
        # The precomputed expansion order of every tool these writes can affect (same transaction).
        gone_meanwhile = tx.run(query("missing_dependency_targets"), targets=list(unchanged)).single()["missing"]
        if gone_meanwhile:
            raise ToolConflictError(
                f"{len(gone_meanwhile)} tool(s) of the catalog were deleted by another write "
                f"while loading; nothing written (load again)",
                gone_meanwhile[:20],
            )
        # Closures list names, so those of deleted tools (`gone`) find the tools that listed them.
        closure.refresh(tx, None if replace_all else names + sources + gone)
        if catalog is not None:
            catalogs.record(tx, catalog[0], source=catalog[1], kind=catalog[2])
        for name in sorted({r["catalog"] for r in written} - {catalog[0] if catalog else None}):
            catalogs.record(tx, name, kind="put")
        if switch is not None:
            catalog_versions.switch(tx, *switch)
        return {n: before.get(n) for n in names}

    return serialized(graph, work)


def _catalogs(tx, names: list[str], batch_size: int) -> dict[str, str]:
    """name -> catalog of the tools among `names` that exist (read under the write lock)."""
    found: dict[str, str] = {}
    for batch in chunks(names, batch_size):
        found.update((r["name"], r["catalog"]) for r in tx.run(query("existing_tools"), names=batch))
    return found


def reembed_all(
    graph: Graph, embedder: Embedder, batch_size: int | None = None, show_progress: bool = False
) -> tuple[int, int]:
    """Re-embed every tool (from its stored spec) and every enrichment question, one bounded
    transaction per `batch_size` vectors (default: KG_TOOLS_VECTOR_WRITE_BATCH_SIZE; used by `kg-tools
    schema reindex`, which has dropped and recreated the vector indexes before: until it ends, vector
    search finds the tools re-embedded so far; interrupted, run it again). Returns (tools, questions)."""
    batch_size = batch_size or graph.settings.vector_write_batch_size
    records = graph.read(query("all_tool_specs"))
    names = [r["name"] for r in records]
    documents = [tool_document(ToolSpec.model_validate(json.loads(r["spec"]))) for r in records]
    del records
    vectors = embedder.embed(documents, show_progress=show_progress)  # float32: lists only per batch
    for i in range(0, len(names), batch_size):
        rows = [
            {"name": n, "embedding": v.tolist(), "embedding_model": embedder.name}
            for n, v in zip(names[i : i + batch_size], vectors[i : i + batch_size])
        ]
        graph.write(query("set_embeddings"), rows=rows)
    questions = graph.read(query("all_question_texts"))
    q_vectors = embedder.embed([q["text"] for q in questions], show_progress=show_progress)
    for i in range(0, len(questions), batch_size):
        rows = [
            {"id": q["id"], "embedding": v.tolist(), "embedding_model": embedder.name}
            for q, v in zip(questions[i : i + batch_size], q_vectors[i : i + batch_size])
        ]
        graph.write(query("set_question_embeddings"), rows=rows)
    return len(names), len(questions)


DELETE_ALL_BATCH = 10_000  # relationships, then nodes, per transaction of a large replace_all


def delete_everything(graph: Graph, log: Callable[[str], None], batch_size: int = DELETE_ALL_BATCH) -> None:
    """What replace_all deletes (every tool, merge run, enrichment question and catalog node), in
    bounded transactions: relationships first, then the nodes. Readers see the graph shrink."""
    relationships = nodes = 0
    while n := graph.write(query("delete_all_relationships_batch"), limit=batch_size)[0]["relationships"]:
        relationships += n
    while n := graph.write(query("delete_all_batch"), limit=batch_size)[0]["deleted"]:
        nodes += n
    log(f"replace_all: deleted {nodes} nodes and {relationships} relationships in bounded transactions")
