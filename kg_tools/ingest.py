"""Write a validated catalog into Neo4j: embed changed tools, then UNWIND batches in ONE transaction.

Re-running a load gives the same graph; a failure anywhere rolls the whole load back.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from neo4j import Driver

from kg_tools.catalog import ToolSpec, ValidatedCatalog, parameter_text, spec_hash, split_name, tool_document, validate_catalog
from kg_tools.cypher import query
from kg_tools.embeddings import Embedder
from kg_tools.schema import apply_schema


@dataclass
class LoadResult:
    catalog: str
    tools: int
    edges: int
    embedded: int
    embed_seconds: float
    write_seconds: float
    report: object = None
    warnings: list[str] = field(default_factory=list)

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


def tool_row(spec: ToolSpec, raw: dict, catalog: str) -> dict:
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
        "embedding": None,
        "embedding_model": None,
    }


def load_catalog(
    driver: Driver,
    embedder: Embedder,
    raw_tools: list,
    catalog: str,
    *,
    strict: bool = False,
    replace: bool = False,
    reembed: bool = False,
    batch_size: int = 500,
    log: Callable[[str], None] = print,
    show_progress: bool = False,
) -> LoadResult:
    existing = {r["name"]: r for r in driver.execute_query(query("tool_state")).records}
    known = set() if replace else set(existing)
    validated = validate_catalog(raw_tools, strict=strict, known_names=known)
    for w in validated.report.warnings:
        log(f"warning: {w}")
    # Schema first: fails on a dimension mismatch before anything is embedded or written.
    apply_schema(driver, embedder.dimension, embedder.name)
    rows = [tool_row(s, r, catalog) for s, r in zip(validated.specs, validated.raw)]
    embed_seconds, to_embed = _embed_changed(embedder, validated, rows, existing, replace or reembed,
                                             show_progress, use_cache=not reembed)
    write_seconds = _write(driver, validated, rows, replace, batch_size)
    return LoadResult(catalog, len(rows), len(validated.edges), to_embed, embed_seconds, write_seconds,
                      validated.report, validated.report.warnings)


def _embed_changed(embedder, validated: ValidatedCatalog, rows, existing, force: bool, show_progress: bool,
                   use_cache: bool):
    todo = [
        i for i, row in enumerate(rows)
        if force
        or row["name"] not in existing
        or existing[row["name"]]["spec_hash"] != row["spec_hash"]
        or existing[row["name"]]["embedding_model"] != embedder.name
        or not existing[row["name"]]["has_embedding"]
    ]
    t0 = time.perf_counter()
    vectors = embedder.embed([tool_document(validated.specs[i]) for i in todo], show_progress=show_progress,
                             use_cache=use_cache)
    for i, vec in zip(todo, vectors):
        rows[i]["embedding"] = vec.tolist()
        rows[i]["embedding_model"] = embedder.name
    return time.perf_counter() - t0, len(todo)


def _write(driver: Driver, validated: ValidatedCatalog, rows: list[dict], replace: bool, batch_size: int) -> float:
    edges = [e.as_row() for e in validated.edges]
    names = [r["name"] for r in rows]
    t0 = time.perf_counter()
    with driver.session() as session:
        with session.begin_transaction() as tx:
            if replace:
                tx.run(query("delete_all_tools")).consume()
            for batch in chunks(rows, batch_size):
                tx.run(query("upsert_tools"), rows=batch).consume()
            for batch in chunks(names, batch_size):
                tx.run(query("delete_outgoing_dependencies"), names=batch).consume()
            for batch in chunks(edges, batch_size):
                tx.run(query("create_dependencies"), edges=batch).consume()
            tx.commit()
    return time.perf_counter() - t0


def reembed_all(driver: Driver, embedder: Embedder, batch_size: int = 500, show_progress: bool = False) -> tuple[int, int]:
    """Re-embed every tool (from its stored spec) and every enrichment question, in one transaction
    (used by `kg-tools schema reindex`). Returns (tools, questions)."""
    records = driver.execute_query(query("all_tool_specs")).records
    specs = [ToolSpec.model_validate(json.loads(r["spec"])) for r in records]
    vectors = embedder.embed([tool_document(s) for s in specs], show_progress=show_progress)
    rows = [{"name": s.name, "embedding": v.tolist(), "embedding_model": embedder.name} for s, v in zip(specs, vectors)]
    questions = driver.execute_query(query("all_question_texts")).records
    q_vectors = embedder.embed([q["text"] for q in questions], show_progress=show_progress)
    q_rows = [{"id": q["id"], "embedding": v.tolist(), "embedding_model": embedder.name} for q, v in zip(questions, q_vectors)]
    with driver.session() as session:
        with session.begin_transaction() as tx:
            for batch in chunks(rows, batch_size):
                tx.run(query("set_embeddings"), rows=batch).consume()
            for batch in chunks(q_rows, batch_size):
                tx.run(query("set_question_embeddings"), rows=batch).consume()
            tx.commit()
    return len(rows), len(q_rows)
