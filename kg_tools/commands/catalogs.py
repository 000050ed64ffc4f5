"""`kg-tools catalogs list|delete`: the catalogs in the graph, and removing one (kg_tools/catalog_store.py)."""

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_flag, print_json


def register(cli):
    @cli.group("catalogs")
    def group():
        """List the catalogs in the graph; delete one (in bounded batches)."""

    @group.command("list")
    @json_flag('Print {"catalogs": [...]} as JSON.')
    @pass_app
    def list_(app, as_json):
        """Name, tools, dependency edges, last load or sync, pending version (a load still writing) and source
        of every catalog."""
        from kg_tools.catalog_store import list_catalogs

        catalogs = list_catalogs(app.graph)
        if as_json:
            print_json({"catalogs": [c.model_dump() for c in catalogs]})
            return
        if not catalogs:
            click.echo("no catalogs")
            return
        width = max(len(c.name) for c in catalogs)
        click.echo(f"{'catalog':<{width}}  {'tools':>7}  {'edges':>7}  {'last load':<25}  {'pending':<8}  source")
        for c in catalogs:
            last = f"{c.last_load} ({c.last_load_kind})" if c.last_load else "-"
            pending = f"v{c.pending_version}" if c.pending_version is not None else "-"
            click.echo(f"{c.name:<{width}}  {c.tools:>7}  {c.edges:>7}  {last:<25}  {pending:<8}  {c.source or '-'}")

    @group.command("delete")
    @click.argument("name")
    @click.option(
        "--batch-size",
        type=click.IntRange(1, 100_000),
        default=5000,
        show_default=True,
        help="Tools deleted per transaction.",
    )
    @pass_app
    def delete(app, name, batch_size):
        """Delete catalog NAME: its tools with their edges, its dependency inference and merge runs.
        Other catalogs are untouched (their edges into NAME are removed and their closures recomputed first)."""
        from kg_tools.catalog_store import delete_catalog

        r = delete_catalog(app.graph, name, batch_size=batch_size, log=click.echo)
        click.echo(
            f"deleted catalog {name!r}: {r.tools} tools, {r.edges} dependency edges, "
            f"{r.dependency_runs} inference runs, {r.merge_runs} merge runs"
            + (f"; {r.detached_edges} edges from other catalogs into it removed" if r.detached_edges else "")
        )

    return group
