"""`kg-tools core detect`: find the generic utilities (read/write a file, fetch a URL, search the web, run a
command, convert a document) and store them as :Core tools (kg_tools/core_tools.py)."""

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_flag, print_json


def register(cli):
    @cli.group("core")
    def group():
        """The :Core utilities of the catalogs (GRTF's Core tools)."""

    @group.command("detect")
    @click.option("--catalog", help="Only this catalog (default: all catalogs).")
    @click.option("--apply", "apply_", is_flag=True, help="Store the result (default: print what it would do).")
    @json_flag('Print {"catalog", "applied", "tools", "changes", "core": [...], "removed": [...]} as JSON.')
    @pass_app
    def detect(app, catalog, apply_, as_json):
        """Classify every tool as a generic utility or not, from its name, input schema, MCP annotations and
        the catalog (how many servers offer the kind); with --apply, utilities become :Core with core_kind,
        core_reason and core_source 'detected'. Idempotent; a tool its catalog made core stays core."""
        from kg_tools.core_tools import detect as run

        result = run(app.graph, catalog=catalog, apply=apply_)
        if as_json:
            print_json(result.model_dump())
            return
        marks = {"add": "+", "update": "~", "keep": "="}
        for t in result.core:
            click.echo(f"{marks[t.action]} {t.name}  [{t.core_source}]  {t.core_reason}")
        for name in result.removed:
            click.echo(f"- {name}  [detected earlier, no longer a utility: back to :Regular]")
        added = sum(t.action == "add" for t in result.core)
        verb = "made" if result.applied else "would make"
        click.echo(
            f"{result.tools} tools classified: {len(result.core)} :Core; {verb} {added} :Core, "
            f"{len(result.removed)} :Regular, {result.changes} changes"
            + ("" if result.applied else " (dry run; --apply writes)")
        )

    return group
