"""`kg-tools eval toollinkos|toolsandbox|supplied-parameters|catalog`: the paper's Table 3, reproduced, and any
catalog. The harness's other modules add their subcommands (`seal-tools`, `deps`) through `register_eval(group)`.
kg_tools/cli.py loads `register` through the `kg_tools.commands` entry point (benchmarks/pyproject.toml).
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import click

from benchmarks.commands.options import limit_queries_option, plot_file_option, split_option
from kg_tools.commands.options import json_file_option

OUT_DIR = Path("out")


@click.group("eval")
def eval_group():
    """Evaluate retrieval against the benchmarks (tables, JSON, PNG)."""


def _csv(value: str | None) -> list[str]:
    return [v.strip() for v in (value or "").split(",") if v.strip()]


def pipeline_options(f):
    """Options shared by the benchmark subcommands (they apply to the GRTF methods)."""
    options = [
        click.argument("directory", required=False, type=click.Path(path_type=Path)),
        json_file_option("Write the results as JSON (default out/eval-<dataset>.json)."),
        plot_file_option("Write a PNG chart of ours vs the paper (default out/eval-<dataset>.png)."),
        click.option(
            "--methods",
            help="Comma-separated methods (default lexical,vector,hybrid,grtf "
            "[+grtf_rerank when a reranker is configured]); `--methods list` lists all.",
        ),
        click.option("--stages", help="Extra pipeline stages for the GRTF methods, e.g. rerank-offline."),
        click.option(
            "--rerank",
            type=click.Choice(["none", "cross-encoder", "llm"]),
            default="none",
            show_default=True,
            help="Reranker for grtf_rerank (default: a configured one).",
        ),
        click.option("--prefer-direct", is_flag=True, help="GRTF methods: direct dependencies first."),
        click.option(
            "--skip-supplied-parameters",
            is_flag=True,
            help="GRTF methods: drop PARAMETER_* dependencies the query supplies.",
        ),
        click.option("--edge-types", help="GRTF methods: comma-separated relationship types to traverse."),
        limit_queries_option(),
        split_option("all", "ToolLinkOS half by main tool (benchmarks/data/toollinkos_split.json): tune on dev."),
        click.option(
            "--queries",
            "queries_file",
            type=click.Path(path_type=Path, dir_okay=False),
            help="Evaluate these queries (instances format) over the benchmark's catalog instead.",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def run_benchmark(
    app,
    dataset,
    json_file,
    plot_file,
    methods,
    stages,
    rerank,
    prefer_direct,
    skip_supplied_parameters,
    edge_types,
    limit,
    split="all",
    queries_file=None,
):
    from benchmarks.eval.paper import paper_numbers
    from benchmarks.eval.report import error_table, plot, table, write_json
    from benchmarks.eval.runner import (
        GraphOptions,
        configured_reranker,
        ensure_catalog,
        error_analysis,
        method_catalog,
        run_method,
        select_methods,
    )

    options = GraphOptions(tuple(_csv(stages)), None, prefer_direct, skip_supplied_parameters, tuple(_csv(edge_types)))
    reranker = configured_reranker(app.settings, rerank)
    if methods == "list":
        for m in method_catalog(30, options, reranker).values():
            click.echo(f"{m.name:<22}{m.description}")
        return None
    chosen = select_methods(_csv(methods), 30, options, reranker, app.settings.llm_configured)
    if queries_file:
        dataset = dataset.with_queries(queries_file)
    dataset = dataset.split(split).limited(limit)
    loaded = ensure_catalog(app.graph, app.embedder, dataset, app.settings, click.echo)
    click.echo(f"{dataset.name}: {len(dataset.instances)} queries, methods {', '.join(m.name for m in chosen)}")
    app.embedder.embed([i.query for i in dataset.instances], query=True)  # one batch; the pipeline reuses the cache
    pipeline = app.pipeline
    results = []
    for method in chosen:
        with click.progressbar(length=len(dataset.instances), label=f"{method.name:<20}", file=sys.stderr) as bar:
            results.append(
                run_method(pipeline, method, dataset.instances, dataset.name, progress=lambda n: bar.update(1))
            )
        row = results[-1].row()
        click.echo(
            f"  {method.name}: mAP@10 {row['mAP@10']:.3f}, Recall@10 {row['Recall@10']:.3f} ({row['seconds']:.0f}s)",
            err=True,
        )
    rows = [r.row() for r in results]
    analysis = {r.method.name: error_analysis(r) for r in results if r.method.graph}
    paper = paper_numbers(dataset.name)
    click.echo("")
    label = (
        dataset.name
        + (f" queries {Path(queries_file).name}" if queries_file else "")
        + (f", {split} half" if split != "all" else "")
    )
    click.echo(table(rows, paper, f"{label} ({len(dataset.instances)} queries, embedder {app.embedder.name})"))
    if analysis:
        click.echo("")
        click.echo(error_table(analysis))
    payload = {
        "dataset": dataset.name,
        "rows": rows,
        "paper": paper,
        "error_analysis": analysis,
        "config": {
            "queries": len(dataset.instances),
            "files": dataset.files,
            "embedder": app.embedder.name,
            "split": split,
            "queries_file": str(queries_file) if queries_file else None,
            "catalog_reloaded": loaded,
            "reranker": reranker,
            "methods": {m.name: {"description": m.description, "request": m.request} for m in chosen},
            "metrics": "AP@k = (1/min(|G|,k)) sum_{i<=k} P@i rel_i; Recall@k = |top-k ∩ G|/|G|; "
            "nDCG@k binary, IDCG over min(|G|,k) hits; gold sets are sets",
        },
    }
    stem = "-".join(
        [
            f"eval-{dataset.name}",
            *([Path(queries_file).stem] if queries_file else []),
            *([split] if split != "all" else []),
        ]
    )
    json_file = json_file or OUT_DIR / f"{stem}.json"
    plot_file = plot_file or OUT_DIR / f"{stem}.png"
    write_json(json_file, payload)
    plot(plot_file, rows, paper, f"{dataset.name}: ours ({app.embedder.name}) vs the paper")
    click.echo(f"\nwrote {json_file} and {plot_file}")
    return payload


@eval_group.command("toollinkos")
@pipeline_options
@click.pass_obj
def toollinkos(app, directory, **kwargs):
    """ToolLinkOS: 1,569 queries over 573 tools (DIR defaults to $KG_TOOLS_DATASETS/toollinkos)."""
    from benchmarks.eval import datasets

    run_benchmark(app, datasets.toollinkos(directory or app.settings.datasets_dir / "toollinkos"), **kwargs)


@eval_group.command("toolsandbox")
@pipeline_options
@click.pass_obj
def toolsandbox(app, directory, **kwargs):
    """ToolSandbox: 101 queries over 33 tools; golden lists are sets (DIR defaults to $KG_TOOLS_DATASETS/toolsandbox)."""
    from benchmarks.eval import datasets

    run_benchmark(app, datasets.toolsandbox(directory or app.settings.datasets_dir / "toolsandbox"), **kwargs)


def register(cli):
    from benchmarks import deps_eval
    from benchmarks.commands import seal_tools

    seal_tools.register_eval(eval_group)
    deps_eval.register_eval(eval_group)
    cli.add_command(eval_group)
    return eval_group


@eval_group.command("supplied-parameters")
@click.argument("directory", required=False, type=click.Path(path_type=Path))
@json_file_option("Write the results as JSON (default out/eval-supplied-parameters.json).")
@click.option("--stages", help="Extra pipeline stages for both runs, e.g. rerank-offline.")
@click.pass_obj
def supplied_parameters(app, directory, json_file, stages):
    """Our own query set: GRTF mAP@10 with and without skip_supplied_parameters (over ToolLinkOS tools)."""
    from benchmarks.eval import datasets, supplied_set
    from benchmarks.eval.metrics import mean_scores
    from benchmarks.eval.report import write_json
    from benchmarks.eval.runner import GraphOptions, ensure_catalog, method_catalog, run_method

    benchmark = datasets.toollinkos(directory or app.settings.datasets_dir / "toollinkos")
    dataset, supplying = supplied_set.load(benchmark.tools, benchmark.name)
    ensure_catalog(app.graph, app.embedder, dataset, app.settings, click.echo)
    methods = method_catalog(30, GraphOptions(stages=tuple(_csv(stages))), "none")
    pipeline = app.pipeline
    rows = []
    for name in ("grtf", "grtf_skip_supplied"):
        result = run_method(pipeline, methods[name], dataset.instances, dataset.name)
        row: dict[str, Any] = {"method": name}
        for label, keep in (("all", lambda s: True), ("supplying", bool), ("not_supplying", lambda s: not s)):
            scores = [r.scores for r, s in zip(result.results, supplying) if keep(s)]
            means = mean_scores(scores)
            row[label] = {"queries": len(scores), **{k: round(means[k], 4) for k in ("mAP@10", "Recall@10", "nDCG@10")}}
        rows.append(row)
    click.echo(f"supplied-parameters set: {len(dataset.instances)} queries ({sum(supplying)} supply a parameter)")
    click.echo(f"{'method':<22}{'all mAP@10':>12}{'supplying':>12}{'not supplying':>15}")
    for row in rows:
        click.echo(
            f"{row['method']:<22}{row['all']['mAP@10']:>12.3f}{row['supplying']['mAP@10']:>12.3f}"
            f"{row['not_supplying']['mAP@10']:>15.3f}"
        )
    json_file = json_file or OUT_DIR / "eval-supplied-parameters.json"
    write_json(
        json_file,
        {
            "dataset": "supplied-parameters",
            "rows": rows,
            "config": {"file": str(supplied_set.DATA), "stages": _csv(stages)},
        },
    )
    click.echo(f"wrote {json_file}")


@eval_group.command("catalog")
@click.argument("catalog_file", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--queries",
    "queries_file",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="Queries in the instances format (user_query, golden_function_names, optional "
    "main_golden_function_name, kind, split).",
)
@click.option(
    "--format",
    "format_",
    type=click.Choice(["auto", "json", "openai-tools", "openapi", "mcp"]),
    default="auto",
    show_default=True,
    help="Catalog file format (auto: by its shape).",
)
@click.option("--catalog", help="Catalog name to load under (default: the file name); must not be in use.")
@click.option(
    "--methods",
    default="vector,grtf",
    show_default=True,
    help="Comma-separated methods (`grtf` is exactly the default request); `--methods list` lists all.",
)
@click.option("--stages", help="Extra pipeline stages for the GRTF methods, e.g. decompose.")
@split_option("all", "Only the queries labelled `split: dev|test` in the query file.")
@limit_queries_option()
@click.option(
    "--servers",
    is_flag=True,
    help="Also write the servers the tools name (mcp_server, openapi_spec or upstream.server) as (:Server) "
    "nodes embedded as the gateway embeds its upstreams, removed afterwards (the default runs server-score where they exist).",
)
@click.option(
    "--infer-deps",
    is_flag=True,
    help="The user's flow: after the methods ran, infer the catalog's dependencies offline and apply them "
    "(as `kg-tools deps infer --apply`), then run every method again as `<method>+deps`.",
)
@click.option(
    "--core",
    "detect_core",
    is_flag=True,
    help="The user's flow: after loading, mark the catalog's generic utilities :Core (as `kg-tools core detect "
    "--apply`), which the default attaches when a request implies one.",
)
@json_file_option("Write the results as JSON (default out/eval-catalog-<catalog>.json).")
@plot_file_option("Write a PNG chart (default out/eval-catalog-<catalog>.png).")
@click.pass_obj
def catalog_command(
    app,
    catalog_file,
    queries_file,
    format_,
    catalog,
    methods,
    stages,
    split,
    limit,
    servers,
    infer_deps,
    detect_core,
    json_file,
    plot_file,
):
    """Any catalog file beside the graph's others: load it under its own name, evaluate the queries
    on it (rows per query kind when the queries carry `kind`), remove it. Other catalogs are untouched."""
    from benchmarks.eval import catalog_eval
    from benchmarks.eval.report import plot, write_json
    from benchmarks.eval.runner import GraphOptions, method_catalog, run_method, select_methods

    options = GraphOptions(tuple(_csv(stages)))
    if methods == "list":
        for m in method_catalog(30, options, "none").values():
            click.echo(f"{m.name:<22}{m.description}")
        return
    chosen = select_methods(_csv(methods), 30, options, "none", app.settings.llm_configured)
    name = catalog or Path(catalog_file).stem
    data = catalog_eval.dataset(catalog_file, queries_file, name, format_, split).limited(limit)
    click.echo(
        f"{name}: {len(data.tools)} tools, {len(data.instances)} queries, methods {', '.join(m.name for m in chosen)}"
    )
    results = []
    inference: dict | None = None
    with catalog_eval.loaded_catalog(app.graph, app.embedder, data, app.settings, click.echo, servers) as n_tools:
        app.embedder.embed([i.query for i in data.instances])  # one batch; the pipeline reuses the cache
        core = catalog_eval.detect_core(app, name, click.echo) if detect_core else None
        pipeline = app.pipeline

        def run_all(suffix: str) -> None:
            for method in chosen:
                label = method.name + suffix
                with click.progressbar(length=len(data.instances), label=f"{label:<20}", file=sys.stderr) as bar:
                    result = run_method(
                        pipeline,
                        method,
                        data.instances,
                        name,
                        catalog_eval.CATALOG_CUTOFFS,
                        progress=lambda n: bar.update(1),
                    )
                result.method = dataclasses.replace(method, name=label)
                results.append(result)

        run_all("")
        if infer_deps:
            inference = catalog_eval.infer_and_apply(app, name, click.echo)
            run_all("+deps")
    by_kind = catalog_eval.rows_by_kind(results)
    rows = by_kind[catalog_eval.OVERALL]
    for row, result in zip(rows, results):
        row["seconds"] = round(result.seconds, 2)
    click.echo("")
    label = (
        f"{name} ({n_tools} tools, {len(data.instances)} queries"
        + (f", {split} split" if split != "all" else "")
        + f", embedder {app.embedder.name})"
    )
    click.echo(catalog_eval.table(by_kind, label))
    payload = {
        "dataset": name,
        "rows": rows,
        "kinds": {k: v for k, v in by_kind.items() if k != catalog_eval.OVERALL},
        "config": {
            "catalog_file": str(catalog_file),
            "queries_file": str(queries_file),
            "format": format_,
            "tools": n_tools,
            "queries": len(data.instances),
            "split": split,
            "servers": servers,
            "infer_deps": inference,
            "core": core,
            "embedder": app.embedder.name,
            "methods": {m.name: {"description": m.description, "request": m.request} for m in chosen},
            "metrics": "AP@k = (1/min(|G|,k)) sum_{i<=k} P@i rel_i; Recall@k = |top-k ∩ G|/|G|; "
            "nDCG@k binary, IDCG over min(|G|,k) hits; gold sets are sets",
        },
    }
    stem = f"eval-catalog-{name}" + (f"-{split}" if split != "all" else "")
    json_file = json_file or OUT_DIR / f"{stem}.json"
    plot_file = plot_file or OUT_DIR / f"{stem}.png"
    write_json(json_file, payload)
    plot(plot_file, rows, {}, f"{name}: {len(data.instances)} queries ({app.embedder.name})")
    click.echo(f"\nwrote {json_file} and {plot_file}")
