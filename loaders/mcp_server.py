"""A running MCP server's tools (`tools/list`) -> catalog entries. Talks to the MCP server over
stdio (a command it starts) or streamable HTTP (a URL), never to Neo4j.

The catalog defaults to the server's name (serverInfo.name from the handshake). Each tool keeps its
input JSON Schema as `input_schema`; its top-level properties become parameters.
"""
from __future__ import annotations

import subprocess
import sys

import anyio

from kg_tools.errors import CatalogError
from loaders.common import CatalogSource

TIMEOUT_SECONDS = 60.0


def tool_entry(tool, warnings: list[str] | None = None) -> dict:
    """One SDK Tool as a catalog entry, through the same translation as a tools/list document."""
    from loaders.document import mcp_entries

    annotations = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else None
    return mcp_entries([{"name": tool.name, "title": tool.title, "description": tool.description,
                         "inputSchema": tool.input_schema or {}, "outputSchema": tool.output_schema,
                         "annotations": annotations or None}], warnings)[0]


async def _list_tools(read, write) -> tuple[str, list]:
    from mcp import ClientSession
    from mcp.types import PaginatedRequestParams

    async with ClientSession(read, write) as session:
        init = await session.initialize()
        tools, cursor = [], None
        while True:
            page = await session.list_tools(params=PaginatedRequestParams(cursor=cursor) if cursor else None)
            tools += page.tools
            cursor = page.next_cursor
            if not cursor:
                return init.server_info.name, tools


def _errlog():
    """Where the started server's stderr goes: ours, when it is a real file. (The SDK's default is the
    `sys.stderr` of the moment `mcp.client.stdio` was imported, which may be a capture without a
    file descriptor, e.g. click's CliRunner; the subprocess then cannot start.)"""
    import io

    for stream in (sys.stderr, sys.__stderr__):
        try:
            stream.fileno()
            return stream
        except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
            continue
    return subprocess.DEVNULL


async def _from_command(command: list[str]) -> tuple[str, list]:
    from mcp import StdioServerParameters, stdio_client

    async with stdio_client(StdioServerParameters(command=command[0], args=command[1:]), errlog=_errlog()) \
            as (read, write):
        return await _list_tools(read, write)


async def _from_url(url: str) -> tuple[str, list]:
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(url) as (read, write):
        return await _list_tools(read, write)


def _unwrap(exc: BaseException) -> BaseException:
    """The innermost single exception of (nested) task-group exception groups."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def load(command: list[str] | None = None, url: str | None = None, catalog: str | None = None,
         timeout: float = TIMEOUT_SECONDS) -> CatalogSource:
    """Exactly one of `command` (argv of a stdio MCP server) or `url` (streamable HTTP endpoint)."""
    if bool(command) == bool(url):
        raise CatalogError("give either a server command (after --) or --url, not both or neither")
    where = url or " ".join(command)

    async def run():
        with anyio.fail_after(timeout):
            return await (_from_url(url) if url else _from_command(command))

    try:
        server_name, tools = anyio.run(run)
    except TimeoutError as exc:
        raise CatalogError(f"MCP server {where}: no tool list within {timeout:.0f}s") from exc
    except Exception as exc:  # noqa: BLE001 - spawn failures, HTTP errors, protocol errors, groups of them
        inner = _unwrap(exc)
        raise CatalogError(f"MCP server {where}: {type(inner).__name__}: {inner}") from exc
    if not tools:
        raise CatalogError(f"MCP server {where} lists no tools")
    warnings: list[str] = []
    entries = [tool_entry(t, warnings) for t in tools]
    return CatalogSource(catalog or server_name, entries, [], [where], warnings)
