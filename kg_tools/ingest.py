"""Write a validated catalog into Neo4j: plan, embed what changed, write with one of three writers.

`plan_load` (pure) says what a load creates, updates, keeps and deletes given the graph's tools and a
`LoadMode`; `pick_writer` chooses how: one transaction, or bounded transactions under a new catalog
version switched in by one (`write_versioned`; REPLACE_ALL first deletes the old graph in batches,
`write_fresh`). Re-running a load gives the same graph; a failure rolls the load back. A tool is
(catalog, name): a load reads and writes its own catalog only, and its dependency edges stay inside it.
`write_tools` holds the graph's write lock (kg_tools/write_lock.py), so the closures it recomputes are those of the committed graph, not of a snapshot a concurrent writer is changing
(docs/concurrency.md). The REST PUT/DELETE of one tool (kg_tools/tool_store.py) take the same lock.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from kg_tools import catalog_store, closure, staged_load
from kg_tools.cypher import query
from kg_tools.embedding_check import mismatch
from kg_tools.embeddings import Embedder, PassageEmbedder
from kg_tools.errors import DanglingReferenceError, ToolConflictError
from kg_tools.graph import Graph
from kg_tools.schema import apply_schema
from kg_tools.tool_spec import (
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
    """A tool's node properties (a load's rows, a PUT's node)."""
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


class LoadMode(StrEnum):
    """What a load does with the tools the graph already holds."""

    ADD = "add"  # create new tools, rewrite changed ones, leave every other tool as it is
    REPLACE = "replace"  # ADD, and delete this catalog's tools the load lacks (`--replace`)
    SYNC = "sync"  # REPLACE for the gateway's sync: a new empty catalog is not recorded, kind "sync"
    REPLACE_ALL = "replace_all"  # every tool, merge run and question deleted first (eval, bench)

    @property
    def replaces_catalog(self) -> bool:
        return self in (LoadMode.REPLACE, LoadMode.SYNC)


@dataclass(frozen=True)
class LoadPlan:
    """What a load writes, from what the graph holds and what was validated (`plan_load`)."""

    mode: LoadMode
    catalog: str
    create: list[str]  # new tools
    update: list[str]  # existing tools rewritten: spec, embedding, catalog or hand-written edges changed
    keep: list[str]  # tools of the load left as they are
    delete: list[str]  # this catalog's tools the load lacks (REPLACE, SYNC)
    embed: list[str]  # tools (new or updated) to embed
    edges: list[dict]  # hand-written edges to write: from a written tool, or to a new one
    needed: bool  # False: nothing to write at all
    positions: dict[str, int] = field(default_factory=dict)  # each written tool's place (kg_tools/deps/sources.py)

    @property
    def loaded(self) -> list[str]:
        return sorted([*self.create, *self.update, *self.keep])


def visible(existing: dict[str, dict], mode: LoadMode) -> dict[str, dict]:
    """The existing tools a load of `mode` builds on (REPLACE_ALL: none, everything goes)."""
    return {} if mode is LoadMode.REPLACE_ALL else existing


def known_names(existing: dict[str, dict], catalog: str, mode: LoadMode) -> set[str]:
    """Names a load's dependencies may name besides its own tools: the catalog's other tools when it adds
    to them (edges stay inside a catalog); none when it replaces the catalog."""
    existing = visible(existing, mode)
    if mode.replaces_catalog:
        return set()
    return {n for n, r in existing.items() if r["catalog"] == catalog}


def plan_load(
    existing: dict[str, dict],
    validated: ValidatedCatalog,
    mode: LoadMode,
    *,
    catalog: str,
    model: str,
    reembed: bool = False,
    known_catalog: bool = True,
) -> LoadPlan:
    """Pure: `existing` (cypher/tool_state.cypher rows of the catalog, by name) and the validated catalog -> what to
    create, update, keep, delete and embed. `model`: the embedder's name (a vector of another model is
    re-embedded); `reembed`: every tool is; `known_catalog`: the catalog's node exists."""
    existing = {n: r for n, r in visible(existing, mode).items() if r["catalog"] == catalog}
    wanted = Counter(e.source for e in validated.edges)
    groups: dict[str, list[str]] = {"create": [], "update": [], "keep": []}
    embed = []
    for spec, raw in zip(validated.specs, validated.raw):
        group, embeds = _classify(existing.get(spec.name), raw, catalog, model, reembed, wanted[spec.name])
        groups[group].append(spec.name)
        if embeds:
            embed.append(spec.name)
    written, new = {*groups["create"], *groups["update"]}, set(groups["create"])
    edges = [e.as_row() for e in validated.edges if e.source in written or e.target in new]
    loaded = written | set(groups["keep"])
    delete = sorted(set(existing) - loaded) if mode.replaces_catalog else []
    # nothing to write at all, unless everything goes or a new catalog is to be recorded (not by a sync)
    needed = bool(written or edges or delete) or mode is LoadMode.REPLACE_ALL
    needed = needed or (not known_catalog and mode is not LoadMode.SYNC)
    positions = load_positions(existing, [s.name for s in validated.specs])
    return LoadPlan(
        mode, catalog, **groups, delete=delete, embed=embed, edges=edges, needed=needed, positions=positions
    )


def load_positions(existing: dict[str, dict], names: list[str]) -> dict[str, int]:
    """Each loaded tool's place in its catalog (what kg_tools/deps/sources.py reads the servers' order from): a
    stored tool keeps its place, a new one comes after every stored one, in the load's order. A server added by a
    later load (ADD), or listed first in a re-load, is not interleaved with the stored ones; a re-load that
    reorders the catalog does not reorder it."""
    stored = {n: r["position"] for n, r in existing.items() if r.get("position") is not None}
    base = max(stored.values(), default=-1) + 1
    return {n: stored.get(n, base + i) for i, n in enumerate(names)}


def _classify(old: dict | None, raw: dict, catalog: str, model: str, reembed: bool, edges: int) -> tuple[str, bool]:
    """One loaded tool: ("create" | "update" | "keep", whether to embed it). `old`: its tool_state row;
    `edges`: the hand-written edges the load gives it."""
    if old is None:
        return "create", True
    stale = reembed or old["spec_hash"] != spec_hash(raw) or old["embedding_model"] != model
    stale = stale or not old["has_embedding"]
    edited = old.get("hand_edges", 0) != edges
    return ("update" if stale or edited else "keep"), stale


def load_catalog(
    graph: Graph,
    embedder: PassageEmbedder,
    raw_tools: list,
    catalog: str,
    mode: LoadMode = LoadMode.ADD,
    *,
    strict: bool = False,
    takeover: bool = False,
    reembed: bool = False,
    batch_size: int = 500,
    log: Callable[[str], None] = print,
    show_progress: bool = False,
    source: str | None = None,
    kind: str | None = None,
    between: Callable[[str], None] | None = None,
) -> LoadResult:
    """Validate, plan (`plan_load`), embed what changed, write it with one writer (`pick_writer`): one
    transaction, or more than `batch_size` new tools under a new catalog version in bounded
    transactions switched in by one (kg_tools/staged_load.py, docs/scale.md).

    `mode`: LoadMode (with REPLACE_ALL and more than `batch_size` tools the old graph is deleted
    first in bounded batches, so it is not undone if the load then fails). Names are per catalog: a name
    another catalog holds too is another tool (`takeover` is accepted and does nothing; before names
    were namespaced it moved such tools). A load that changes nothing writes nothing. `source` and `kind` (load, sync, import;
    default: "sync" for SYNC, else "load") are stored on the catalog's node (kg_tools/catalog_store.py).
    `between(stage)`: a test hook, called with "staged" when a versioned load has staged its new tools
    and not yet switched them in."""
    catalog = check_catalog_name(catalog)  # every path: CLI, API, a file's stem, an MCP server's name
    if mode is LoadMode.ADD or mode is LoadMode.REPLACE:
        catalog_store.check_writable(graph, catalog)  # a gateway's catalog changes only through its sync
    if mode is not LoadMode.REPLACE_ALL:
        staged_load.prepare(graph, catalog)  # another load running? leftovers of one that died?
    state = graph.read(query("tool_state"), catalog=None)  # every catalog's: the vector model check
    existing = {r["name"]: r for r in state if r["catalog"] == catalog}
    known_catalog = graph.read(query("catalog_get"), catalog=catalog)[0]["catalog"] is not None
    validated = validate_catalog(raw_tools, strict=strict, known_names=known_names(existing, catalog, mode))
    for w in validated.report.warnings:
        log(f"warning: {w}")
    plan = plan_load(
        existing, validated, mode, catalog=catalog, model=embedder.name, reembed=reembed, known_catalog=known_catalog
    )
    result = LoadResult(
        catalog,
        len(validated.specs),
        len(validated.edges),
        len(plan.embed),
        0.0,
        0.0,
        validated.report,
        validated.report.warnings,
        [*plan.create, *plan.update],
        plan.delete,
        written_how=None,
    )
    if not plan.needed:
        return result
    # Schema first: fails on a dimension mismatch before anything is embedded or written.
    apply_schema(graph, embedder.dimension, embedder.name)
    others = state if mode is not LoadMode.REPLACE_ALL else []
    check_other_vectors(others, catalog, set(plan.loaded), mode.replaces_catalog, embedder.name)
    rows, result.embed_seconds = _rows(embedder, validated, plan, catalog, show_progress, use_cache=not reembed)
    job = WriteJob(graph, plan, rows, (catalog, source, kind or ("sync" if mode is LoadMode.SYNC else "load")))
    job.batch_size, job.log, job.between = batch_size, log, between
    t0 = time.perf_counter()
    result.written_how = pick_writer(plan, batch_size)(job)
    result.write_seconds = time.perf_counter() - t0
    return result


def _rows(
    embedder: PassageEmbedder,
    validated: ValidatedCatalog,
    plan: LoadPlan,
    catalog: str,
    show_progress: bool,
    use_cache: bool,
) -> tuple[list[dict], float]:
    """The node rows of the tools the plan writes, the planned ones embedded; and the embedding seconds."""
    written = {*plan.create, *plan.update}
    rows = {
        s.name: tool_row(s, r, catalog) | {"position": plan.positions.get(s.name)}
        for s, r in zip(validated.specs, validated.raw)
        if s.name in written
    }
    specs = {s.name: s for s in validated.specs if s.name in rows}
    t0 = time.perf_counter()
    vectors = embedder.embed(
        [tool_document(specs[n]) for n in plan.embed], show_progress=show_progress, use_cache=use_cache
    )
    for name, vec in zip(plan.embed, vectors):
        rows[name]["embedding"] = vec  # a float32 row; a list of Python floats only per batch (`wire`)
        rows[name]["embedding_model"] = embedder.name
    return list(rows.values()), time.perf_counter() - t0


@dataclass
class WriteJob:
    """What a writer needs: the plan, the rows of the tools it writes, the catalog's (name, source, kind)."""

    graph: Graph
    plan: LoadPlan
    rows: list[dict]
    meta: tuple[str, str | None, str]
    batch_size: int = 500
    log: Callable[[str], None] = print
    between: Callable[[str], None] | None = None

    def write_tools(self, rows: list[dict], edges: list[dict], **kwargs) -> dict[str, str | None]:
        plan = self.plan
        return write_tools(
            self.graph,
            rows,
            edges,
            batch_size=self.batch_size,
            catalog=self.meta,
            delete=plan.delete,
            **kwargs,
        )


def pick_writer(plan: LoadPlan, batch_size: int) -> Callable[[WriteJob], str]:
    """The write strategy: more than one batch of new tools needs bounded transactions."""
    if len(plan.create) <= batch_size:
        return write_in_one_transaction
    return write_fresh if plan.mode is LoadMode.REPLACE_ALL else write_versioned


def write_in_one_transaction(job: WriteJob) -> str:
    """Everything in ONE write-lock transaction (`write_tools`)."""
    replace_all = job.plan.mode is LoadMode.REPLACE_ALL
    job.write_tools(job.rows, job.plan.edges, replace_all=replace_all, unchanged=[] if replace_all else job.plan.keep)
    return "in one transaction"


def write_fresh(job: WriteJob) -> str:
    """REPLACE_ALL of more than one batch: the old graph deleted in bounded transactions, then versioned."""
    delete_everything(job.graph, job.log)
    return write_versioned(job)


def write_versioned(job: WriteJob) -> str:
    """A large load (kg_tools/staged_load.py): the new tools, their edges and closures in bounded
    transactions under a new catalog version, then ONE transaction with the changed tools, the
    deletions and the switch. Any failure before the switch deletes the new version again."""
    graph, plan, catalog = job.graph, job.plan, job.plan.catalog
    new = set(plan.create)
    staged_edges = [e for e in plan.edges if e["source"] in new]
    version, created = staged_load.begin(graph, catalog)
    try:
        staged_load.stage(
            graph, catalog, version, [r for r in job.rows if r["name"] in new], staged_edges, job.batch_size, job.log
        )
        if job.between is not None:
            job.between("staged")
        job.write_tools(
            [r for r in job.rows if r["name"] not in new],
            [e for e in plan.edges if e["source"] not in new],
            switch_to=version,
            also_check=sorted({e["target"] for e in staged_edges}),
            unchanged=plan.keep,
        )
    except BaseException:
        try:
            staged_load.discard(graph, catalog, version, drop_new=created)
        except Exception as exc:  # noqa: BLE001 - the load's own error is the one to report
            job.log(
                f"warning: version {version} of catalog {catalog!r} was not cleaned up ({exc}); "
                f"the next load of {catalog!r} removes it"
            )
        raise
    staged_load.settle(graph, catalog, version)
    return (
        f"under catalog version {version} in bounded transactions of at most {job.batch_size} tools, "
        f"switched in by one transaction"
    )


def check_other_vectors(state: list[dict], catalog: str, loaded: set[str], replaces: bool, model: str) -> None:
    """Refuse a load that would leave the graph's vectors from two models (same dimension, so the
    index check cannot see it): tools this load keeps as they are must have been embedded by `model`.
    `state`: every tool's tool_state row; `loaded`: the names the load writes into `catalog`; `replaces`:
    the load replaces the catalog (its other tools go)."""
    others: dict[str, int] = {}
    for row in state:
        ours = row["catalog"] == catalog
        if (ours and (replaces or row["name"] in loaded)) or not row["has_embedding"]:
            continue
        if row["embedding_model"] != model:
            others[str(row["embedding_model"])] = others.get(str(row["embedding_model"]), 0) + 1
    if others:
        raise mismatch(others, model)


def write_tools(
    graph: Graph,
    rows: list[dict],
    edges: list[dict],
    *,
    batch_size: int = 500,
    delete: Sequence[str] = (),
    replace_all: bool = False,
    catalog: tuple[str, str | None, str] | None = None,
    switch_to: int | None = None,
    also_check: Sequence[str] = (),
    unchanged: Sequence[str] = (),
) -> dict[str, str | None]:
    """A load's write of tools into ONE catalog, in ONE transaction that holds the write lock: optional
    deletion (the tools named in `delete` that are still in the catalog, or everything), the nodes (UNWIND
    batches), their outgoing hand-written dependency edges replaced (unchanged edges kept as they are;
    edges stay inside the catalog), the closures they affect. The catalog is `catalog[0]` (name, source,
    kind: recorded on its node), else the rows' (DEFAULT_CATALOG without one). Checked under the lock: a
    dependency target that does not exist in the catalog (e.g. deleted concurrently) is a
    DanglingReferenceError and rolls everything back. Returns each written tool's catalog before the write
    (None: the tool was created). `switch_to`: this is the switch transaction of a versioned load
    (kg_tools/staged_load.py), whose staged edges' targets `also_check` must still exist.
    `unchanged`: tools of the load not rewritten; one deleted meanwhile by another writer rolls back."""
    if (switch_to is not None or delete) and catalog is None:
        raise ValueError("write_tools: switch_to and delete need the catalog")
    name = catalog[0] if catalog is not None else next((r["catalog"] for r in rows if r["catalog"]), DEFAULT_CATALOG)
    names = [r["name"] for r in rows]
    sources = sorted({e["source"] for e in edges} - set(names))
    targets = sorted({e["target"] for e in edges} | set(also_check))
    keep: dict[str, list] = {}
    for e in edges:
        keep.setdefault(e["source"], []).append([e["type"], e["target"], e["ord"]])

    def work(tx) -> dict[str, str | None]:
        before = {} if replace_all else _existing(tx, name, names, batch_size)
        gone: list[str] = []
        if replace_all:
            tx.run(query("delete_all_tools")).consume()
        elif delete:
            gone = tx.run(query("delete_catalog_tools"), catalog=name, names=list(delete)).single()["gone"]
        for batch in chunks([{**r, "catalog": name} for r in rows], batch_size):
            tx.run(query("upsert_tools"), rows=wire(batch)).consume()
        for batch in chunks(names, batch_size):
            kept = {n: keep[n] for n in batch if n in keep}
            tx.run(query("delete_outgoing_dependencies"), catalog=name, names=batch, keep=kept).consume()
        for batch in chunks(edges, batch_size):
            tx.run(query("create_dependencies"), catalog=name, edges=batch).consume()
        _check_targets(tx, name, targets, edges, unchanged)
        # Closures list names, so those of deleted tools (`gone`) find the tools that listed them.
        closure.refresh(tx, None if replace_all else names + sources + gone)
        catalog_store.record(tx, name, **({"source": catalog[1], "kind": catalog[2]} if catalog else {"kind": "put"}))
        if switch_to is not None:
            staged_load.switch(tx, name, switch_to)
        return {n: before.get(n) for n in names}

    return serialized(graph, work)


def _check_targets(tx, catalog: str, targets: list[str], edges: list[dict], unchanged: Sequence[str]) -> None:
    """Inside the write: every dependency target exists in the catalog (else DanglingReferenceError) and no
    tool the load kept as it was was deleted by another writer meanwhile (ToolConflictError); both roll back."""
    missing = tx.run(query("missing_dependency_targets"), catalog=catalog, targets=targets).single()["missing"]
    if missing:
        by_target: dict[str, str] = {}
        for e in edges:
            by_target.setdefault(e["target"], e["source"])
        raise DanglingReferenceError(
            f"{len(missing)} dependency target(s) do not exist; nothing written",
            [
                f"dangling dependency target: {by_target.get(m, 'a new tool')} -> {m} ({m!r} is not a tool "
                f"of catalog {catalog!r})"
                for m in missing
            ],
        )
    query_ = query("missing_dependency_targets")
    gone_meanwhile = tx.run(query_, catalog=catalog, targets=list(unchanged)).single()["missing"]
    if gone_meanwhile:
        raise ToolConflictError(
            f"{len(gone_meanwhile)} tool(s) of the catalog were deleted by another write "
            f"while loading; nothing written (load again)",
            gone_meanwhile[:20],
        )


def _existing(tx, catalog: str, names: list[str], batch_size: int) -> dict[str, str]:
    """name -> catalog of the tools of `catalog` among `names` that exist (read under the write lock)."""
    found: dict[str, str] = {}
    for batch in chunks(names, batch_size):
        rows = tx.run(query("existing_tools"), catalog=catalog, names=batch)
        found.update((r["name"], r["catalog"]) for r in rows)
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
