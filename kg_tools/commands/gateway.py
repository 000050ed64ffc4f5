"""`kg-tools gateway --config FILE`: one MCP endpoint for N upstream MCP servers (kg_tools/gateway/);
`kg-tools gateway status|approve --config FILE`: the held tool definitions (kg_tools/gateway/pinning.py)."""

import json

import click

from kg_tools.commands.context import AppContext, pass_app
from kg_tools.commands.options import mcp_port_option, mcp_transport_option

CONFIG_HELP = 'The mcpServers JSON (as MCP clients use it) plus an optional "kg-tools" policy block.'


def register(cli):
    @cli.group("gateway", invoke_without_command=True)
    @click.option("--config", "config_path", type=click.Path(dir_okay=False), help=CONFIG_HELP + "  [required]")
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
            raise click.UsageError("Missing option '--config'.")
        from kg_tools.gateway.config import load_config
        from kg_tools.gateway.server import run

        run(
            ctx.find_object(AppContext).settings,
            load_config(config_path),
            transport=transport,
            host=host,
            port=port,
            resync=resync,
            profile=profile,
        )

    @gateway.command("status")
    @click.option("--config", "config_path", required=True, type=click.Path(dir_okay=False), help=CONFIG_HELP)
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @pass_app
    def status(app, config_path, as_json):
        """The held tool definitions of the config's servers (not offered, not callable until approved)."""
        from kg_tools.gateway.config import load_config
        from kg_tools.gateway.names import qualified_name
        from kg_tools.gateway.pinning import holds

        config = load_config(config_path)
        held = [h | {"name": qualified_name(h["server"], h["tool"])} for h in holds(app.graph, sorted(config.servers))]
        if as_json:
            click.echo(json.dumps({"held": held}, indent=2))
            return
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

        if bool(names) == approve_all:
            raise click.UsageError("give the held tool NAMES to approve, or --all")
        config = load_config(config_path)
        approved = approve_held(app.graph, sorted(config.servers), None if approve_all else list(names))
        missing = sorted(set(names) - set(approved))
        for name in approved:
            click.echo(f"approved {name}")
        if missing:
            raise ConfigurationError(f"not held: {', '.join(missing)} (see `kg-tools gateway status`)")
