"""`kg-tools eval deps --catalog-file FILE --gold FILE [--json PATH]`: inferred edges of any catalog against
hand-written gold edges (format: docs/dependencies.md).

The catalog is loaded under its own name (refused before anything is written when that name is in use or
one of its tool names belongs to another catalog), inferred through the same `infer_graph` as `kg-tools deps
infer`, scored, and deleted again (its tools, their edges, closures refreshed); no other catalog is touched."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from benchmarks.eval.catalog_eval import loaded_catalog, read_catalog
from benchmarks.eval.datasets import EvalDataset
from benchmarks.eval.report import write_json
from kg_tools.deps import infer_graph
from kg_tools.deps.offline import LabelledEdge, ProposedEdge
from kg_tools.errors import CatalogError, EvalError
from kg_tools.loaders.common import read_json
from kg_tools.tool_spec import normalise_dependency_type


def read_gold(path: Path, split: str = "all") -> tuple[list[LabelledEdge], dict]:
    """Gold edges of a file (a list of edges or {"provenance", "edges": [...]}) and its other keys."""
    data = read_json(path)
    meta = {k: v for k, v in data.items() if k != "edges"} if isinstance(data, dict) else {}
    edges = data.get("edges") if isinstance(data, dict) else data
    if not isinstance(edges, list):
        raise CatalogError(f'{path}: gold edges must be a JSON list or {{"edges": [...]}}')
    out, problems = [], []
    for i, e in enumerate(edges):
        if not isinstance(e, dict) or not all(isinstance(e.get(k), str) for k in ("source", "target")):
            problems.append(f"edge #{i}: needs string source and target")
            continue
        dtype = normalise_dependency_type(e.get("type") or e.get("dependence_type") or "")
        if dtype is None:
            problems.append(f"edge #{i} ({e['source']} -> {e['target']}): unknown type {e.get('type')!r}")
            continue
        if split != "all" and e.get("split", meta.get("split")) != split:
            continue
        out.append(LabelledEdge(e["source"], e["target"], dtype.value, e.get("parameter_name")))
    if problems:
        raise CatalogError(f"{path}: malformed gold edges", problems)
    return out, meta


def scored_sources(path: Path, split: str, names: set[str]) -> set[str] | None:
    """The consumers a split scores (None: all). Gold lines are split by consumer, so a consumer's predicted
    edges count in the half its gold lines are in; a tool with no gold line (nothing should be proposed for
    it) counts in the dev half, where its wrong edges are seen while tuning."""
    if split == "all":
        return None

    data = read_json(path)
    default = data.get("split") if isinstance(data, dict) else None
    edges = data.get("edges") if isinstance(data, dict) else data
    halves = {e["source"]: e.get("split", default) for e in edges or [] if isinstance(e, dict) and "source" in e}
    return {n for n in names if halves.get(n, "dev") == split}


def _prf(predicted: set, gold: set) -> dict:
    tp = len(predicted & gold)
    precision = tp / len(predicted) if predicted else 0.0
    recall = tp / len(gold) if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4), "true_positives": tp}


def gold_scores(predicted: list[ProposedEdge], gold: list[LabelledEdge]) -> dict:
    """Untyped (source, target) and typed (source, target, type) precision / recall / F1, and per
    inference method how many of its edges were right."""
    p_untyped = {(e.source, e.target) for e in predicted}
    g_untyped = {(e.source, e.target) for e in gold}
    by_method: dict[str, Counter] = {}
    for e in predicted:
        c = by_method.setdefault(e.method, Counter())
        c["edges"] += 1
        c["correct"] += (e.source, e.target) in g_untyped
    return {
        "untyped": _prf(p_untyped, g_untyped),
        "typed": _prf({(e.source, e.target, e.type) for e in predicted}, {(e.source, e.target, e.type) for e in gold}),
        "predicted": len(p_untyped),
        "gold": len(g_untyped),
        "by_method": {m: dict(c) for m, c in sorted(by_method.items())},
        "missed": sorted(f"{s} -> {t}" for s, t in g_untyped - p_untyped),
        "wrong": sorted(f"{s} -> {t}" for s, t in p_untyped - g_untyped),
    }


def run_gold_eval(
    app,
    catalog_file: Path,
    gold_file: Path,
    json_file: Path | None,
    min_confidence: float,
    method: str,
    split: str = "all",
    format: str = "auto",
    catalog: str | None = None,
) -> dict:
    catalog_file, gold_file = Path(catalog_file), Path(gold_file)
    catalog = catalog or catalog_file.name.split(".")[0]
    source = read_catalog(catalog_file, catalog, format)
    gold, meta = read_gold(gold_file, split)
    names = {t["name"] for t in source.tools if isinstance(t, dict) and isinstance(t.get("name"), str)}
    unknown = sorted({n for e in gold for n in (e.source, e.target)} - names)
    if unknown:
        raise EvalError(
            f"{gold_file}: {len(unknown)} tool name(s) of the gold edges are not tools of "
            f"{catalog_file}: {', '.join(unknown[:10])}"
        )
    data = EvalDataset(catalog, source.tools, [], source.files)
    for warning in source.warnings:
        click.echo(f"warning: {warning}", err=True)
    with loaded_catalog(app.graph, app.embedder, data, app.settings, lambda m: click.echo(m, err=True)):
        [result] = infer_graph(
            app.graph,
            app.embedder,
            app.settings,
            catalog=catalog,
            min_confidence=min_confidence,
            method=method,
            progress=True,
        )
    scored = scored_sources(gold_file, split, names)
    scores = gold_scores([e for e in result.edges if scored is None or e.source in scored], gold)
    payload = {
        "catalog": catalog,
        "catalog_file": str(catalog_file),
        "gold_file": str(gold_file),
        "split": split,
        "provenance": meta.get("provenance"),
        "tools": len(names),
        **scores,
        "inference": result.summary() | {"min_confidence": min_confidence},
        "edges": [e.as_dict() for e in result.edges],
    }
    u, t = scores["untyped"], scores["typed"]
    click.echo(
        f"{catalog}: {len(names)} tools, {scores['gold']} gold edges, {scores['predicted']} inferred ({result.method})"
    )
    click.echo(f"  untyped  precision {u['precision']:.3f}  recall {u['recall']:.3f}  F1 {u['f1']:.3f}")
    click.echo(f"  typed    precision {t['precision']:.3f}  recall {t['recall']:.3f}  F1 {t['f1']:.3f}")
    for m, c in scores["by_method"].items():
        click.echo(f"  {m}: {c['edges']} edges, {c.get('correct', 0)} in the gold")
    if json_file:
        write_json(Path(json_file), payload)
        click.echo(f"wrote {json_file}")
    return payload
