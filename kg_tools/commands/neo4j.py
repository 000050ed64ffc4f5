"""`kg-tools neo4j install|start|stop|status`: the local Maven-assembled Neo4j server."""

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.options import json_flag, print_json
from kg_tools.neo4j_server import LocalNeo4j

STOPPED = 3  # LSB init-script convention for "program is not running"


def register(cli):
    @cli.group("neo4j")
    def group():
        """Install, start, stop or inspect the local Neo4j 5.26 Community server (no Docker)."""

    @group.command()
    @pass_app
    def install(app):
        """Fetch Neo4j from Maven Central into KG_TOOLS_NEO4J_HOME, write neo4j.conf, set the password."""
        server = LocalNeo4j.from_settings(app.settings)
        server.install(log=click.echo)
        click.echo(f"Neo4j installed in {server.home}")

    @group.command()
    @pass_app
    def start(app):
        """Start in the background and wait until Bolt answers (no-op when running)."""
        server = LocalNeo4j.from_settings(app.settings)
        if not server.jars_installed():
            server.install(log=click.echo)
        server.start(log=click.echo)

    @group.command()
    @pass_app
    def stop(app):
        """Stop the server started by `kg-tools neo4j start` (only its own pid)."""
        LocalNeo4j.from_settings(app.settings).stop(log=click.echo)

    @group.command()
    @json_flag()
    @pass_app
    @click.pass_context
    def status(ctx, app, as_json):
        """Is the local server running, on which ports. Exit code 0 running, 3 stopped (LSB)."""
        st = LocalNeo4j.from_settings(app.settings).status()
        if as_json:
            print_json(st)
        else:
            state = f"running (pid {st['pid']})" if st["running"] else "stopped"
            click.echo(f"Neo4j {state}; Bolt {st['bolt']}; Browser {st['browser']}; home {st['home']}")
        ctx.exit(0 if st["running"] else STOPPED)
