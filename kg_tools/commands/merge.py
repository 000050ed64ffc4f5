"""`kg-tools merge plan|apply|undo RUN|list`: ToolScope merging of redundant tools."""

from __future__ import annotations

import json

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_file_option, json_flag

EXPLAIN_LIMIT = 40


def _plan_options(f):
    f = click.option("--theta", type=float, default=None, help="Cosine threshold for candidates (default 0.82).")(f)
    f = click.option("--top-k", "top_k", type=int, default=None, help="Neighbours per tool (default 30).")(f)
    f = click.option("--catalog", default=None, help="Only tools of this catalog.")(f)
    f = click.option("--offline", is_flag=True, help="Ignore a configured LLM; use the offline rule.")(f)
    f = click.option(
        "--auto-correct/--no-auto-correct",
        "auto_correct",
        default=None,
        help="Audit each cluster before merging it (ToolScope's Auto-Correction; default: "
        "KG_TOOLS_MERGE_AUTO_CORRECT, on).",
    )(f)
    return f


def make_plan(app, theta, top_k, catalog, offline, auto_correct=None):
    from kg_tools.llm import llm_from_settings
    from kg_tools.merge import DEFAULT_THETA, DEFAULT_TOP_K, build_plan

    llm = None if offline else llm_from_settings(app.settings)
    plan = build_plan(
        app.graph,
        theta=DEFAULT_THETA if theta is None else theta,
        top_k=top_k or DEFAULT_TOP_K,
        catalog=catalog,
        llm=llm,
        auto_correct=app.settings.merge_auto_correct if auto_correct is None else auto_correct,
    )
    path = (
        "LLM (" + app.settings.llm_model + ")"
        if llm
        else "offline (no LLM configured)"
        if not offline
        else "offline (--offline)"
    )
    click.echo(
        f"classifier path: {path}; classifier={plan.classifier}, validator={plan.validator}, writer={plan.writer}"
    )
    t = plan.timing_s
    click.echo(
        f"timing: candidates {t['candidates']:.2f}s + classification {t['classify']:.2f}s = "
        f"{t['candidates'] + t['classify']:.2f}s for {plan.tools_before} tools "
        f"({plan.candidates} candidate pairs, {len(plan.accepted)} accepted)"
    )
    return plan


def echo_plan(plan, explain: bool, limit: int | None):
    click.echo(
        f"tools {plan.tools_before} -> {plan.tools_after}: {len(plan.clusters)} clusters, "
        f"{len(plan.phi)} tools merged (theta {plan.theta}, top-{plan.top_k})"
    )
    for note in plan.notes:
        click.echo(f"note: {note}")
    for c in plan.clusters[:limit]:
        click.echo(f"* {c.canonical}  [{c.validator}; writer {c.writer}]")
        for m in c.members:
            click.echo(f"    <- {m.name}  score {m.score:.3f}  ({m.method}) {m.reason}")
    if limit is not None and len(plan.clusters) > limit:
        click.echo(f"... {len(plan.clusters) - limit} more clusters (--limit 0 shows all, --json FILE writes all)")
    if explain:
        echo_borderline(plan)


def borderline_pairs(plan, limit: int = EXPLAIN_LIMIT) -> dict:
    """Where the rule is most likely wrong: high-cosine rejections and low-cosine acceptances."""
    rejected = sorted((d for d in plan.decisions if not d.same), key=lambda d: -d.cosine)[:limit]
    accepted = sorted((d for d in plan.decisions if d.same), key=lambda d: d.cosine)[:limit]
    return {"rejected_high_cosine": rejected, "accepted_low_cosine": accepted}


def echo_borderline(plan):
    groups = borderline_pairs(plan)
    click.echo("\nborderline pairs -- rejected despite a high cosine (possible false negatives):")
    for d in groups["rejected_high_cosine"]:
        click.echo(f"  {d.cosine:.3f}  {d.a} / {d.b}: {d.reason}")
    click.echo("borderline pairs -- accepted with the lowest cosine (possible false positives):")
    for d in groups["accepted_low_cosine"]:
        click.echo(f"  {d.cosine:.3f}  {d.a} / {d.b}: {d.reason}")


def register(cli):
    @cli.group("merge")
    def group():
        """Merge redundant tools into canonical ones (MERGED_INTO; undoable)."""

    @group.command("plan")
    @_plan_options
    @click.option("--explain", is_flag=True, help="Also list borderline pairs (where the rule may err).")
    @click.option("--limit", type=int, default=30, show_default=True, help="Clusters to print (0 = all).")
    @json_file_option("Write the whole plan as JSON.")
    @pass_app
    def plan_cmd(app, theta, top_k, catalog, offline, auto_correct, explain, limit, json_file):
        """Dry run: clusters, members, scores, reasons and the classifier used."""
        plan = make_plan(app, theta, top_k, catalog, offline, auto_correct)
        echo_plan(plan, explain, limit or None)
        if json_file:
            json_file.parent.mkdir(parents=True, exist_ok=True)
            json_file.write_text(json.dumps(plan.to_dict(explain=True), indent=1, ensure_ascii=False, default=str))
            click.echo(f"wrote {json_file}")

    @group.command("apply")
    @_plan_options
    @pass_app
    def apply_cmd(app, theta, top_k, catalog, offline, auto_correct):
        """Plan and apply in one transaction (the same plan twice changes nothing); the canonical
        tools are re-embedded from their merged documents."""
        from kg_tools.merge import apply_plan

        plan = make_plan(app, theta, top_k, catalog, offline, auto_correct)
        echo_plan(plan, False, 10)
        click.echo(apply_plan(app.graph, plan, app.embedder).message)

    @group.command("undo")
    @click.argument("run_id")
    @pass_app
    def undo_cmd(app, run_id):
        """Undo one run exactly (canonical tools restored, MERGED_INTO and the run removed)."""
        from kg_tools.merge import undo_run

        result = undo_run(app.graph, run_id)
        click.echo(f"undid {run_id}: {result.restored} canonical tools restored, {result.unlinked} MERGED_INTO removed")

    @group.command("list")
    @json_flag()
    @pass_app
    def list_cmd(app, as_json):
        """Merge runs, newest first."""
        from kg_tools.merge import list_runs

        runs = list_runs(app.graph)
        if as_json:
            click.echo(json.dumps([r.model_dump(exclude_unset=True) for r in runs], indent=1, default=str))
            return
        if not runs:
            click.echo("no merge runs")
        for r in runs:
            click.echo(
                f"{r.id}  {r.created}  theta {r.theta}  {r.classifier}/{r.validator}  "
                f"{r.clusters} clusters, {r.links} merged, tools {r.tools_before} -> {r.tools_after}"
            )

    return group
