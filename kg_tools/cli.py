"""`kg-tools` command line. Each command group lives in kg_tools/commands/<name>.py."""
from __future__ import annotations

import sys

import click

from kg_tools.errors import CatalogError, KgToolsError
from kg_tools.settings import Settings


class AppContext:
    """Settings plus lazily created driver and embedder, shared by the commands of one run."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self._driver = None
        self._embedder = None

    @property
    def driver(self):
        if self._driver is None:
            from kg_tools.db import connect

            self._driver = connect(self.settings)
        return self._driver

    @property
    def embedder(self):
        if self._embedder is None:
            from kg_tools.embeddings import embedder_from_settings

            self._embedder = embedder_from_settings(self.settings)
        return self._embedder

    def close(self):
        if self._driver is not None:
            self._driver.close()


pass_app = click.make_pass_decorator(AppContext)


@click.group()
@click.version_option()
@click.pass_context
def cli(ctx: click.Context):
    """kg-tools: a Neo4j knowledge graph of tools for LLM agents."""
    app = AppContext(Settings())
    ctx.obj = app
    ctx.call_on_close(app.close)


def _register():
    from kg_tools.commands import bench, enrich, load, merge, models, neo4j, retrieve, schema, serve, stats, up
    from kg_tools.commands import eval as evaluate

    for module in (neo4j, schema, load, stats, up, retrieve, serve, evaluate, merge, enrich, bench, models):
        module.register(cli)


_register()


def main(argv=None):
    try:
        cli.main(args=argv, prog_name="kg-tools", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except CatalogError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except KgToolsError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
