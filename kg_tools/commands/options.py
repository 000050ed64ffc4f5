"""Options and output that several commands share: the same flag, parameter and type, declared once
(each command keeps its own help text where it says something of its own)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click


def json_flag(help: str | None = "Print JSON."):
    """`--json` (parameter `as_json`): print JSON instead of a table."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def json_file_option(help: str):
    """`--json FILE` (parameter `json_file`): write the results to FILE."""
    return click.option("--json", "json_file", type=click.Path(path_type=Path), help=help)


def mcp_transport_option():
    """`--transport stdio|http` of the MCP servers (`kg-tools mcp`, `kg-tools gateway`)."""
    return click.option(
        "--transport",
        type=click.Choice(["stdio", "http"]),
        default="stdio",
        show_default=True,
        help="stdio: an MCP client starts this command; http: streamable HTTP at http://HOST:PORT/mcp.",
    )


def mcp_port_option():
    """`--port P` of the MCP servers over HTTP."""
    return click.option("--port", type=click.IntRange(1, 65535), help="HTTP port [KG_TOOLS_MCP_PORT, 8765].")


def print_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2))
