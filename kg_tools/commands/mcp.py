"""`kg-tools mcp [--transport stdio|http] [--host H] [--port P]`: the MCP server (kg_tools/mcp_server.py)."""

import click

from kg_tools.commands.context import pass_app


def register(cli):
    @cli.command("mcp")
    @click.option(
        "--transport",
        type=click.Choice(["stdio", "http"]),
        default="stdio",
        show_default=True,
        help="stdio: an MCP client starts this command; http: streamable HTTP at http://HOST:PORT/mcp.",
    )
    @click.option("--host", help="HTTP bind address [KG_TOOLS_API_HOST, 127.0.0.1].")
    @click.option("--port", type=click.IntRange(1, 65535), help="HTTP port [KG_TOOLS_MCP_PORT, 8765].")
    @pass_app
    def mcp(app, transport, host, port):
        """Serve the tool graph to MCP clients: tools search_tools and get_tool."""
        from kg_tools.mcp_server import run

        run(app.settings, transport, host, port)
