"""`kg-tools mcp [--transport stdio|http] [--host H] [--port P]`: the MCP server (kg_tools/mcp_server.py)."""

import click

from kg_tools.commands.context import pass_app
from kg_tools.commands.options import mcp_port_option, mcp_transport_option


def register(cli):
    @cli.command("mcp")
    @mcp_transport_option()
    @click.option("--host", help="HTTP bind address [KG_TOOLS_API_HOST, 127.0.0.1].")
    @mcp_port_option()
    @pass_app
    def mcp(app, transport, host, port):
        """Serve the tool graph to MCP clients: tools search_tools and get_tool."""
        from kg_tools.mcp_server import run

        run(app.settings, transport, host, port)
