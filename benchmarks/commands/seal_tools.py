"""`kg-tools eval seal-tools [DIR] [--methods a,b] [--alpha A] [--stages a,b] [--merge] [--json FILE]`
(registered into the eval group)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from benchmarks.commands.options import limit_queries_option
from kg_tools.commands.options import json_file_option
from kg_tools.cypher import query
from kg_tools.errors import KgToolsError

PAPER = {
    "source": "ToolScope (arXiv 2510.20036), 654 Seal-Tools queries, Recall@5 / Recall@10",
    "dense": [0.589, 0.649],
    "BM25": [0.490, 0.540],
    "ToolScope": [0.884, 0.935],
    "Toolshed": [0.876, 0.965],
}


def _thetas(value: str) -> list[float]:
    try:
        return [float(v) for v in value.split(",") if v.strip()]
    except ValueError as exc:
        raise click.BadParameter(f"comma-separated numbers expected: {value}") from exc


def _methods(value: str) -> list[str]:
    from benchmarks.merge_eval import METHODS

    names = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [n for n in names if n not in METHODS]
    if unknown or not names:
        raise click.BadParameter(
            f"unknown method(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(METHODS)}"
        )
    return list(dict.fromkeys(names))


def _stages(value: str | None) -> list[str]:
    from kg_tools.retrieval.plan import STAGES

    names = [v.strip() for v in (value or "").split(",") if v.strip()]
    unknown = [n for n in names if n not in STAGES]
    if unknown:
        raise click.BadParameter(f"unknown stage(s) {', '.join(unknown)}; available: {', '.join(sorted(STAGES))}")
    return names


def ensure_seal_tools(app, source) -> None:
    from kg_tools.ingest import load_catalog

    rows = app.graph.read(query("catalog_tool_count"), catalog=source.catalog)
    if rows[0]["n"] == len(source.tools):
        return
    click.echo(f"loading {source.catalog} ({len(source.tools)} tools) first")
    load_catalog(
        app.graph,
        app.embedder,
        source.tools,
        source.catalog,
        batch_size=app.settings.write_batch_size,
        log=click.echo,
        show_progress=True,
    )


@click.command("seal-tools")
@click.argument("directory", required=False, type=click.Path(path_type=Path))
@click.option("--merge", "do_merge", is_flag=True, help="Also merge (theta sweep) and evaluate after merging.")
@click.option("--thetas", default="0.77,0.82,0.86,0.90", show_default=True, help="Theta sweep (with --merge).")
@click.option("--theta", type=float, default=0.82, show_default=True, help="The theta of the main 'rows'.")
@click.option(
    "--methods",
    default="lexical,vector,hybrid",
    show_default=True,
    help="Comma-separated search methods: lexical, vector, hybrid, rrf; the papers' toolscope, rps.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0.0, 1.0),
    default=0.8,
    show_default=True,
    help="Weight of the vector leg for the hybrid method.",
)
@click.option("--stages", help="Extra pipeline stages for every method, e.g. decompose or decompose,fusion-max.")
@click.option("--offline", is_flag=True, help="Ignore a configured LLM; use the offline merger.")
@limit_queries_option()
@json_file_option("Write the results as JSON.")
@click.pass_obj
def seal_tools(app, directory, do_merge, thetas, theta, methods, alpha, stages, offline, limit, json_file):
    """Seal-Tools: Recall/CSR@5/@10 per method (and stages), before and after merging; TCCR, UCC.

    Each merge of the sweep is applied, evaluated and undone: the graph is left as it was."""
    from benchmarks.merge_eval import Query, merge_summary, retrieval_rows
    from kg_tools.llm import llm_from_settings
    from kg_tools.loaders import seal_tools as loader
    from kg_tools.merge import apply_plan, build_plan, current_phi, undo_run

    run = {"methods": _methods(methods), "alpha": alpha, "stages": _stages(stages)}
    source = loader.load(directory or app.settings.datasets_dir / "seal-tools")
    ensure_seal_tools(app, source)
    if current_phi(app.graph, source.catalog):
        raise KgToolsError(
            "the graph has merged Seal-Tools tools: undo those runs first (`kg-tools merge list`, "
            "`kg-tools merge undo RUN`) so that 'before' means before"
        )
    queries = [Query(q["id"], q["query"], q["gold"], q["calling"]) for q in source.instances][:limit]
    specs = {t["name"]: t for t in source.tools}
    pipeline = app.pipeline
    llm = None if offline else llm_from_settings(app.settings)
    click.echo(
        f"{len(queries)} queries, {len(specs)} tools; merger path: "
        f"{'LLM ' + app.settings.llm_model if llm else 'offline (no LLM configured)' if not offline else 'offline (--offline)'}"
    )
    rows = retrieval_rows(pipeline, queries, {}, False, source.catalog, progress=click.echo, **run)
    out: dict = {"rows": rows, "merge": None, "sweep": [], "paper": PAPER, "queries": len(queries), "config": run}
    if do_merge:
        sweep = sorted(set(_thetas(thetas)) | {theta})
        for th in sweep:
            plan = build_plan(
                app.graph, theta=th, catalog=source.catalog, llm=llm, auto_correct=app.settings.merge_auto_correct
            )
            summary = merge_summary(plan, queries, specs)
            click.echo(
                f"theta {th}: tools {plan.tools_before} -> {plan.tools_after} ({len(plan.clusters)} clusters); "
                f"candidates {summary['candidate_seconds']:.2f}s + classification {summary['classify_seconds']:.2f}s "
                f"= {summary['candidates_plus_classify_seconds']:.2f}s; TCCR {summary['tccr']:.3f}, UCC {summary['ucc']:.3f}"
            )
            result = apply_plan(app.graph, plan, app.embedder)
            try:
                merged_rows = retrieval_rows(
                    pipeline, queries, plan.phi, True, source.catalog, progress=click.echo, **run
                )
            finally:
                if result.applied:
                    undo_run(app.graph, result.run_id)
            out["sweep"].append(summary | {"rows": merged_rows, "notes": plan.notes[:20]})
            if th == theta:
                out["rows"] = rows + merged_rows
                out["merge"] = {
                    k: summary[k] for k in ("tools_before", "tools_after", "clusters", "tccr", "ucc")
                } | summary
    _print_table(out)
    if json_file:
        json_file.parent.mkdir(parents=True, exist_ok=True)
        json_file.write_text(json.dumps(out, indent=1))
        click.echo(f"wrote {json_file}")


def _print_table(out: dict) -> None:
    keys = ["Recall@5", "Recall@10", "CSR@5", "CSR@10"]
    click.echo(f"\n{'method':14s} {'merged':6s} {'stages':24s} " + " ".join(f"{k:>9s}" for k in keys))
    for r in out["rows"]:
        label = r["method"] + (f" a={r['alpha']:g}" if "alpha" in r else "")
        click.echo(
            f"{label:14s} {str(r['merged']):6s} {','.join(r.get('stages', [])) or '-':24s} "
            + " ".join(f"{r[k]:9.3f}" for k in keys)
        )
    for s in out["sweep"]:
        best = max(s["rows"], key=lambda r: r["Recall@5"])
        click.echo(
            f"theta {s['theta']}: tools {s['tools_before']} -> {s['tools_after']}, TCCR {s['tccr']:.3f}, "
            f"UCC {s['ucc']:.3f}, best {best['method']} R@5 {best['Recall@5']:.3f} R@10 {best['Recall@10']:.3f}"
        )
    click.echo(f"paper: {PAPER}")


def register_eval(eval_group) -> None:
    """Hook called by benchmarks.commands.eval.register."""
    eval_group.add_command(seal_tools)
