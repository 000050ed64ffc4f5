"""`kg-tools gateway --config FILE`: one MCP endpoint for N upstream MCP servers (kg_tools/gateway/)."""

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.options import mcp_port_option, mcp_transport_option


def register(cli):
    @cli.command("gateway")
    @click.option(
        "--config",
        "config_path",
        required=True,
        type=click.Path(dir_okay=False),
        help='The mcpServers JSON (as MCP clients use it) plus an optional "kg-tools" policy block.',
    )
    @mcp_transport_option()
    @click.option("--host", default="127.0.0.1", show_default=True, help="HTTP bind address (loopback unless told).")
    @mcp_port_option()
    @click.option(
        "--resync",
        type=click.FloatRange(1, 86400),
        help="Also re-list every upstream every SECONDS (default: only at start and on tools/list_changed).",
    )
    @click.option("--profile", help="stdio: the policy profile to apply [the block's default_profile].")
    @pass_app
    def gateway(app, config_path, transport, host, port, resync, profile):
        """Sync upstream MCP servers into the graph and serve search_tools, get_tool, call_tool."""
        from kg_tools.gateway.config import load_config
        from kg_tools.gateway.server import run

        run(
            app.settings,
            load_config(config_path),
            transport=transport,
            host=host,
            port=port,
            resync=resync,
            profile=profile,
        )
