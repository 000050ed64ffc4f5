"""`kg-tools stats [--json]`."""

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_flag, print_json
from kg_tools.stats import graph_stats


def register(cli):
    @cli.command("stats")
    @json_flag()
    @pass_app
    def stats(app, as_json):
        """Node counts by label, relationship counts by type, indexes and their state."""
        st = graph_stats(app.graph)
        if as_json:
            print_json(st)
            return
        click.echo("labels:")
        for k, v in st["labels"].items():
            click.echo(f"  {k:<34} {v:>7}")
        click.echo("relationships:")
        for k, v in st["relationships"].items():
            click.echo(f"  {k:<34} {v:>7}")
        click.echo("indexes:")
        for i in st["indexes"]:
            click.echo(f"  {i['name']:<34} {i['type']:<9} {i['state']}")
