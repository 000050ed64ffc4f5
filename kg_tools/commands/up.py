"""`kg-tools up`: the main job in one command (install + start Neo4j, schema, load ToolLinkOS)."""

import importlib

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.load import DATASETS
from kg_tools.neo4j_server import LocalNeo4j


def register(cli):
    @cli.command("up")
    @click.option(
        "--dataset",
        default="toollinkos",
        show_default=True,
        type=click.Choice([*DATASETS, "none"]),
        help="Catalog to load.",
    )
    @click.option(
        "--api/--no-api",
        default=True,
        show_default=True,
        help="Also start the REST API in the background (stop both with `kg-tools down`).",
    )
    @pass_app
    def up(app, dataset, api):
        """Install and start Neo4j, apply the schema, load a catalog, print where everything is."""
        server = LocalNeo4j.from_settings(app.settings)
        server.install(log=click.echo)
        server.start(log=click.echo)
        from kg_tools.schema import apply_schema

        apply_schema(app.graph, app.embedder.dimension, app.embedder.name)
        if dataset != "none":
            from kg_tools.commands.load import run_load

            loader = importlib.import_module(DATASETS[dataset][0])
            run_load(app, loader.load(app.settings.datasets_dir / dataset), strict=False, replace=False)
        s = app.settings
        click.echo("")
        click.echo(
            f"Neo4j Browser: {server.browser_url}  (user neo4j, password in {server.password_file}"
            f"{' or $NEO4J_PASSWORD' if s.neo4j_password else ''})"
        )
        click.echo(f"Bolt:          {server.bolt_uri}")
        if api:
            from kg_tools.api_process import ApiProcess

            rest = ApiProcess.from_settings(s)
            rest.start(env={"NEO4J_URI": s.neo4j_uri}, log=lambda *_: None)
            click.echo(f"REST API:      {rest.url}  (docs {rest.url}/docs, log {rest.log_file})")
            click.echo("Stop both:     kg-tools down")
        else:
            click.echo(f"REST API:      `kg-tools serve` -> http://{s.api_host}:{s.api_port}/docs")
            click.echo("Stop Neo4j:    kg-tools neo4j stop")

    @cli.command("down")
    @pass_app
    def down(app):
        """Stop the REST API and Neo4j started by `kg-tools up` (only their own pids)."""
        from kg_tools.api_process import ApiProcess

        ApiProcess.from_settings(app.settings).stop(log=click.echo)
        LocalNeo4j.from_settings(app.settings).stop(log=click.echo)
