"""`kg-tools deps infer|list|observed|undo`: dependency inference for catalogs without edges, and the
dependencies the gateway observed in real calls (kg_tools/deps/)."""

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_flag, print_json


def render(results) -> str:
    lines = []
    for r in results:
        s = r.summary()
        lines.append(
            f"catalog {s['catalog']}: {s['tools']} tools, {s['labelled_edges']} hand-written edges as "
            f"examples, method {s['method']}: {s['proposed']} proposed "
            f"({', '.join(f'{k} {v}' for k, v in sorted(s['by_type'].items())) or 'none'})"
        )
        lines += [f"  note: {n}" for n in s["notes"][:10]]
        for e in r.edges:
            param = f" [{e.parameter_name}]" if e.parameter_name else ""
            lines.append(f"  {e.source} -> {e.target} {e.type}{param} {e.confidence:.2f} {e.method}: {e.reason}")
    return "\n".join(lines)


def register(cli):
    @cli.group("deps")
    def group():
        """Infer dependency edges for catalogs that have none; list and undo runs; observed dependencies."""

    @group.command("infer")
    @click.option("--catalog", help="Only this catalog (default: each catalog in turn).")
    @click.option("--apply", "apply_", is_flag=True, help="Write the proposals (one undoable run per catalog).")
    @click.option("--min-confidence", type=click.FloatRange(0.0, 1.0), help="Keep proposals at or above this [0.2].")
    @click.option(
        "--method",
        type=click.Choice(["auto", "offline", "llm"]),
        default="auto",
        show_default=True,
        help="auto: the LLM judge when OPENAI_BASE_URL is set, else offline.",
    )
    @json_flag("Print proposals (and runs) as JSON.")
    @pass_app
    def infer(app, catalog, apply_, min_confidence, method, as_json):
        """Propose typed dependency edges (dry run unless --apply). Hand-written edges are never touched."""
        from kg_tools.deps import DEFAULT_MIN_CONFIDENCE, apply_results, infer_graph, recover

        if apply_:
            recover(app.graph)  # a run left pending by a crash is rolled back before the graph is read
        threshold = DEFAULT_MIN_CONFIDENCE if min_confidence is None else min_confidence
        results = infer_graph(
            app.graph,
            app.embedder,
            app.settings,
            catalog=catalog,
            min_confidence=threshold,
            method=method,
            progress=True,
        )
        runs = apply_results(app.graph, results, threshold) if apply_ else []
        if as_json:
            print_json(
                {
                    "results": [r.summary() | {"edges": [e.as_dict() for e in r.edges]} for r in results],
                    "runs": [r.model_dump() for r in runs],
                }
            )
            return
        click.echo(render(results))
        for run in runs:
            click.echo(run.message)
        if not apply_:
            click.echo("dry run: nothing written (add --apply)")

    @group.command("list")
    @json_flag(help=None)
    @pass_app
    def list_(app, as_json):
        """Inference runs, newest first (a run left `pending` by a crash is shown, not recovered)."""
        from kg_tools.deps import list_runs

        runs = list_runs(app.graph)
        if as_json:
            print_json({"runs": [r.model_dump(exclude_unset=True) for r in runs]})
            return
        if not runs:
            click.echo("no dependency inference runs")
        for r in runs:
            click.echo(
                f"{r.id}  {r.created}  catalog {r.catalog}  {r.method}  "
                f"min-confidence {r.min_confidence}  {r.edges_in_graph} edges in the graph"
                + ("  (stale: its edges went with their tools; `kg-tools deps undo` removes it)" if r.stale else "")
                + (
                    "  (pending: being applied, or left by a crash; the next `deps infer --apply` or "
                    "`deps undo` rolls it back)"
                    if r.status == "pending"
                    else ""
                )
            )

    @group.command("observed")
    @json_flag(help=None)
    @pass_app
    def observed(app, as_json):
        """Dependencies observed in the gateway's calls: shadow observations and promoted edges."""
        from kg_tools.deps.observed import list_observed

        rows = list_observed(app.graph)
        if as_json:
            print_json({"observations": rows, "promote_after": app.settings.observed_promote_after})
            return
        if not rows:
            click.echo("no observed dependencies (the gateway records them from real calls)")
        for r in rows:
            run = f"  run {r['run']}" if r["run"] else ""
            click.echo(
                f"{r['status']:<8}  {r['consumer']} [{r['parameter_name']}] <- {r['provider']}  "
                f"seen {r['count']} times in {r['sessions']} sessions, last {r['last_seen']}{run}"
            )

    @group.command("undo")
    @click.argument("run")
    @pass_app
    def undo(app, run):
        """Delete the edges of one inference run or observed promotion (and the run); runs left pending by a
        crash are rolled back first."""
        from kg_tools.deps import undo_run

        result = undo_run(app.graph, run)
        click.echo(f"undid {result.run}: {result.removed} inferred edges removed")

    return group
