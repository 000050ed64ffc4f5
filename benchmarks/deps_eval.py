"""`kg-tools eval deps [DIR] [--dataset toollinkos|toolsandbox] [--split dev|test|all] [--json PATH] [--plot PATH]`.

Remove every dependency edge, infer them again, and measure (1) the inferred edges against the hand-written
ones (precision, recall, F1; untyped = (source, target), typed = (source, target, type)) and (2) retrieval:
`vector` (no edges), `grtf_paper` and `grtf` (the paper's GRTF and our default pipeline over the hand
edges) and `grtf_paper_inferred` / `grtf_inferred` (the same over the inferred edges only).

ToolLinkOS split (benchmarks/data/toollinkos_split.json, by main tool, as `eval --split`): inference learns only from the
edges whose source is a dev main tool; queries and edges of a half are those of its main tools. Core tools
are never main tools: they are providers for both halves, their own (core -> core) edges are not learned
from and are reported apart (`core_edges`). ToolSandbox is a second check nothing was tuned on: inferred
with no labelled edges (the offline rules), all its queries.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from benchmarks.commands.options import limit_queries_option, plot_file_option, split_option
from benchmarks.deps_gold import run_gold_eval
from benchmarks.eval import datasets
from benchmarks.eval.datasets import SPLIT_DIR
from benchmarks.eval.report import plot, table, write_json
from benchmarks.eval.runner import GraphOptions, Method, ensure_catalog, method_catalog, run_method
from kg_tools.commands.options import json_file_option
from kg_tools.deps.infer import DEFAULT_MIN_CONFIDENCE, infer_catalog
from kg_tools.deps.offline import Examples, LabelledEdge, ProposedEdge, ToolInfo
from kg_tools.deps.store import apply_run, delete_catalog_edges, run_id_for, undo_run
from kg_tools.errors import EvalError
from kg_tools.ingest import load_catalog
from kg_tools.llm import llm_from_settings
from kg_tools.tool_spec import normalise_dependency_type

OUT_DIR = Path("out")


def load_split(dataset: str = "toollinkos") -> dict[str, set[str]]:
    """The dev and test main tools of benchmarks/data/<dataset>_split.json (the split `eval --split` uses)."""
    data = json.loads((SPLIT_DIR / f"{dataset}_split.json").read_text())
    return {"dev": set(data["dev"]), "test": set(data["test"])}


def hand_edges(tools: list[dict]) -> list[LabelledEdge]:
    edges = []
    for t in tools:
        for d in t.get("depends_on") or []:
            dtype = normalise_dependency_type(d["dependence_type"])
            if dtype is not None:
                edges.append(LabelledEdge(t["name"], d["name"], dtype.value, d.get("parameter_name")))
    return edges


def edge_scores(predicted: list[ProposedEdge], gold: list[LabelledEdge], sources: set[str]) -> dict:
    """Precision/recall/F1 over edges whose source is in `sources`, untyped and typed."""

    def prf(p: set, g: set) -> tuple[float, float, float]:
        tp = len(p & g)
        precision = tp / len(p) if p else 0.0
        recall = tp / len(g) if g else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return round(precision, 4), round(recall, 4), round(f1, 4)

    p_typed = {(e.source, e.target, e.type) for e in predicted if e.source in sources}
    g_typed = {(e.source, e.target, e.type) for e in gold if e.source in sources}
    untyped = prf({x[:2] for x in p_typed}, {x[:2] for x in g_typed})
    typed = prf(p_typed, g_typed)
    return {
        "edge_precision": untyped[0],
        "edge_recall": untyped[1],
        "edge_f1": untyped[2],
        "edge_precision_typed": typed[0],
        "edge_recall_typed": typed[1],
        "edge_f1_typed": typed[2],
        "predicted": len({x[:2] for x in p_typed}),
        "gold": len({x[:2] for x in g_typed}),
    }


def run_eval(
    app,
    dataset_name: str,
    directory: Path | None,
    split: str,
    json_file: Path | None,
    min_confidence: float,
    method: str,
    limit: int | None,
    plot_file: Path | None = None,
) -> dict:
    settings, graph, embedder = app.settings, app.graph, app.embedder
    dataset = getattr(datasets, dataset_name.replace("-", "_"))(directory or settings.datasets_dir / dataset_name)
    tools = [t for t in dataset.tools]
    kinds = {t["name"]: t.get("func_type", "regular") for t in tools}
    gold = hand_edges(tools)
    if dataset_name == "toollinkos":
        halves = load_split()
        part = halves["dev"] | halves["test"] if split == "all" else halves[split]
        examples = Examples([e for e in gold if e.source in halves["dev"]], set(halves["dev"]))
        instances = dataset.split(split).instances
    else:  # the untouched check: no labelled edges, every query
        if split != "all":
            click.echo(f"{dataset_name} has no split: evaluating all of it", err=True)
        split, part, examples, instances = (
            "all",
            {n for n, k in kinds.items() if k == "regular"},
            Examples([]),
            dataset.instances,
        )
    instances = instances[:limit] if limit else instances
    if not instances:
        raise EvalError(f"no queries in the {split} split")

    llm = llm_from_settings(settings) if method in ("auto", "llm") else None
    if method == "llm" and llm is None:
        raise EvalError("--method llm needs OPENAI_BASE_URL")
    click.echo(
        f"inferring dependencies for {len(tools)} tools from {len(examples.edges)} labelled dev edges "
        f"({'LLM judge' if llm else 'offline'}) ...",
        err=True,
    )
    infos = [ToolInfo.from_raw(t) for t in tools]
    result = infer_catalog(infos, embedder, examples, min_confidence=min_confidence, llm=llm, catalog=dataset.name)
    sources_in_part = {n for n in part if kinds.get(n) == "regular"}
    scores = edge_scores(result.edges, gold, sources_in_part)
    core_scores = edge_scores(result.edges, gold, {n for n, k in kinds.items() if k == "core"})

    ensure_catalog(graph, embedder, dataset, settings, lambda m: click.echo(m, err=True))
    pipeline = app.pipeline
    embedder.embed([i.query for i in instances], query=True)
    methods = method_catalog(30, GraphOptions(), "none")
    rows = []

    def measure(m: Method) -> None:
        with click.progressbar(length=len(instances), label=f"{m.name:<16}", file=sys.stderr) as bar:
            rows.append(run_method(pipeline, m, instances, dataset.name, progress=lambda n: bar.update(1)).row())

    for name in ("vector", "grtf_paper", "grtf"):
        measure(methods[name])
    run_id = run_id_for(dataset.name, "eval:" + result.method, result.edges)
    try:
        delete_catalog_edges(graph, dataset.name)
        apply_run(graph, run_id, dataset.name, "eval:" + result.method, min_confidence, result.edges, result.notes)
        measure(
            dataclasses.replace(
                methods["grtf_paper"],
                name="grtf_paper_inferred",
                description="the paper's GRTF over the inferred edges only",
            )
        )
        measure(
            Method(
                "grtf_inferred",
                "the default pipeline (grtf) over the inferred edges only",
                methods["grtf"].request,
                True,
            )
        )
    finally:  # the hand edges back, the inferred ones gone
        undo_run(graph, run_id)
        load_catalog(
            graph, embedder, dataset.tools, dataset.name, batch_size=settings.write_batch_size, log=lambda *_: None
        )

    payload = {
        "dataset": dataset.name,
        "split": split,
        **{k: v for k, v in scores.items()},
        "core_edges": core_scores,
        "rows": rows,
        "inference": result.summary() | {"min_confidence": min_confidence},
        "config": {
            "queries": len(instances),
            "tools": len(tools),
            "labelled_edges": len(examples.edges),
            "embedder": embedder.name,
            "files": dataset.files,
            "methods": "vector: no edges; grtf_paper / grtf: hand edges; *_inferred: the same over the "
            "inferred edges only",
        },
    }
    click.echo(
        f"\n{dataset.name} {split}: {len(instances)} queries; edges whose source is a {split} main tool: "
        f"{scores['predicted']} inferred, {scores['gold']} hand-written"
    )
    click.echo(
        f"  untyped  precision {scores['edge_precision']:.3f}  recall {scores['edge_recall']:.3f}  "
        f"F1 {scores['edge_f1']:.3f}"
    )
    click.echo(
        f"  typed    precision {scores['edge_precision_typed']:.3f}  recall {scores['edge_recall_typed']:.3f}  "
        f"F1 {scores['edge_f1_typed']:.3f}"
    )
    click.echo(
        f"  core -> core (shared, not learned from): precision {core_scores['edge_precision']:.3f} "
        f"recall {core_scores['edge_recall']:.3f}"
    )
    click.echo("")
    click.echo(table(rows, {}, f"retrieval on the {split} queries ({embedder.name}, method {result.method})"))
    json_file = json_file or OUT_DIR / f"eval-deps-{dataset.name}-{split}.json"
    write_json(json_file, payload)
    plot_file = plot_file or json_file.with_suffix(".png")
    plot(plot_file, rows, {}, f"{dataset.name} {split}: hand edges vs inferred edges (edge F1 {scores['edge_f1']:.2f})")
    click.echo(f"\nwrote {json_file} and {plot_file}")
    return payload


def register_eval(group) -> None:
    @group.command("deps")
    @click.argument("directory", required=False, type=click.Path(path_type=Path))
    @click.option(
        "--dataset",
        type=click.Choice(["toollinkos", "toolsandbox"]),
        default="toollinkos",
        show_default=True,
        help="ToolSandbox: the untouched check (no labelled edges, no split).",
    )
    @split_option("test", "Which half's queries and edges to score (learning uses the dev half only).")
    @json_file_option("Write the results (default out/eval-deps-<dataset>-<split>.json).")
    @plot_file_option("Bar chart of mAP@10 / Recall@10 per method (default: the JSON path with .png).")
    @click.option(
        "--min-confidence", type=click.FloatRange(0.0, 1.0), default=DEFAULT_MIN_CONFIDENCE, show_default=True
    )
    @click.option("--method", type=click.Choice(["offline", "llm", "auto"]), default="offline", show_default=True)
    @limit_queries_option()
    @click.option(
        "--catalog-file",
        type=click.Path(path_type=Path, exists=True, dir_okay=False),
        help="Any catalog file (OpenAPI, MCP tool list, OpenAI tools, JSON): score inference on it against "
        "--gold instead of a benchmark (loaded under its own name, removed afterwards).",
    )
    @click.option(
        "--gold",
        "gold_file",
        type=click.Path(path_type=Path, exists=True, dir_okay=False),
        help="Hand-written gold edges for --catalog-file (docs/dependencies.md).",
    )
    @click.option("--catalog", "catalog_name", help="Catalog name for --catalog-file (default: the file name's stem).")
    @click.pass_obj
    def deps(
        app,
        directory,
        dataset,
        split,
        json_file,
        plot_file,
        min_confidence,
        method,
        limit,
        catalog_file,
        gold_file,
        catalog_name,
    ):
        """Dependency inference: remove every edge, infer, score edges and retrieval (grtf_inferred); or, with
        --catalog-file and --gold, edge precision/recall/F1 (untyped and typed) on any catalog."""
        if bool(catalog_file) != bool(gold_file):
            raise click.UsageError("--catalog-file and --gold go together")
        if catalog_file:
            given = click.get_current_context().get_parameter_source("split") != ParameterSource.DEFAULT
            run_gold_eval(
                app,
                catalog_file,
                gold_file,
                json_file,
                min_confidence,
                method,
                split=split if given else "all",
                catalog=catalog_name,
            )
            return
        run_eval(app, dataset, directory, split, json_file, min_confidence, method, limit, plot_file)
