"""`kg-tools gateway --config FILE`: one MCP endpoint for N upstream MCP servers (kg_tools/gateway/);
`kg-tools gateway status --config FILE`: each upstream's state and last error, as the running gateway wrote them,
and the held tool definitions (kg_tools/gateway/pinning.py); `kg-tools gateway approve` pins held ones."""

import json
from pathlib import Path

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.options import mcp_port_option, mcp_transport_option

CONFIG_HELP = 'The mcpServers JSON (as MCP clients use it) plus an optional "kg-tools" policy block.'


def gateway_settings(app, config_path: str):
    """The settings, with the `.env` of the config file's directory when there is one (an MCP client may
    start the gateway in any directory); and where they came from, for the start-up line."""
    from kg_tools.settings import Settings

    env_file = Path(config_path).resolve().parent / ".env"
    if env_file.is_file():
        return Settings(_env_file=env_file), f"{env_file} and the environment"  # type: ignore[call-arg]
    here = Path(".env").resolve()
    return app.settings, f"{here} and the environment" if here.is_file() else "the environment"


def register(cli):
    @cli.group("gateway", invoke_without_command=True)
    @click.option("--config", "config_path", type=click.Path(dir_okay=False), help=CONFIG_HELP)
    @mcp_transport_option()
    @click.option("--host", default="127.0.0.1", show_default=True, help="HTTP bind address (loopback unless told).")
    @mcp_port_option()
    @click.option(
        "--resync",
        type=click.FloatRange(1, 86400),
        help="Also re-list every upstream every SECONDS (default: only at start and on tools/list_changed).",
    )
    @click.option("--profile", help="stdio: the policy profile to apply [the block's default_profile].")
    @click.pass_context
    def gateway(ctx, config_path, transport, host, port, resync, profile):
        """Sync upstream MCP servers into the graph and serve search_tools, get_tool, call_tool."""
        if ctx.invoked_subcommand is not None:
            return
        if config_path is None:
            raise click.UsageError("Missing option '--config'.", ctx)
        if profile is not None and transport == "http":
            raise click.UsageError(
                "--profile applies to stdio only: over HTTP each request's bearer token picks its profile", ctx
            )
        from kg_tools.gateway.config import load_config
        from kg_tools.gateway.server import run

        settings, settings_from = gateway_settings(ctx.obj, config_path)
        run(
            settings,
            load_config(config_path),
            transport=transport,
            host=host,
            port=port,
            resync=resync,
            profile=profile,
            config_path=config_path,
            settings_from=settings_from,
        )

    @gateway.command("status")
    @click.option("--config", "config_path", required=True, type=click.Path(dir_okay=False), help=CONFIG_HELP)
    @click.option("--json", "as_json", is_flag=True, help="The status document as JSON.")
    @pass_app
    def status(app, config_path, as_json):
        """Each upstream's state (starting, ready, down), tools, restarts and last error; and the held tool
        definitions of the config's servers (not offered, not callable until approved)."""
        from kg_tools.errors import KgToolsError
        from kg_tools.gateway.config import load_config
        from kg_tools.gateway.health import read_status, status_lines, status_path
        from kg_tools.gateway.names import qualified_name
        from kg_tools.gateway.pinning import holds
        from kg_tools.graph import Graph

        settings, _ = gateway_settings(app, config_path)
        path = status_path(settings, config_path)
        document = read_status(path)
        config = load_config(config_path)
        graph = app.graph if settings is app.settings else Graph.connect(settings)  # the gateway's Neo4j
        held = [h | {"name": qualified_name(h["server"], h["tool"])} for h in holds(graph, sorted(config.servers))]
        if document is None and not held:
            raise KgToolsError(f"no gateway has run with {Path(config_path).resolve()} (no status at {path})")
        if as_json:
            click.echo(json.dumps((document or {}) | {"held": held}, indent=2))
            return
        if document is None:
            click.echo(f"no upstream status: no gateway is running with {Path(config_path).resolve()}")
        for line in status_lines(document or {}):
            click.echo(line)
        for h in held:
            click.echo(f"held  {h['name']}: {h['hold']}")
        click.echo(f"{len(held)} held tool(s)" + ("; approve with `kg-tools gateway approve`" if held else ""))

    @gateway.command("approve")
    @click.option("--config", "config_path", required=True, type=click.Path(dir_okay=False), help=CONFIG_HELP)
    @click.argument("names", nargs=-1)
    @click.option("--all", "approve_all", is_flag=True, help="Approve every held tool of the config's servers.")
    @pass_app
    def approve(app, config_path, names, approve_all):
        """Pin the held definitions of NAMES (server__tool), or of every held tool with --all; a running
        gateway offers them from its next request."""
        from kg_tools.errors import ConfigurationError
        from kg_tools.gateway.config import load_config
        from kg_tools.gateway.pinning import approve as approve_held
        from kg_tools.graph import Graph

        if bool(names) == approve_all:
            raise click.UsageError("give the held tool NAMES to approve, or --all")
        settings, _ = gateway_settings(app, config_path)
        graph = app.graph if settings is app.settings else Graph.connect(settings)  # the gateway's Neo4j
        config = load_config(config_path)
        approved = approve_held(graph, sorted(config.servers), None if approve_all else list(names))
        missing = sorted(set(names) - set(approved))
        for name in approved:
            click.echo(f"approved {name}")
        if missing:
            raise ConfigurationError(f"not held: {', '.join(missing)} (see `kg-tools gateway status`)")
