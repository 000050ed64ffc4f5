"""A running MCP server's tools (`tools/list`) -> catalog entries. Talks to the MCP server over
stdio (a command it starts) or streamable HTTP (a URL), never to Neo4j.

The catalog defaults to the server's name (serverInfo.name from the handshake). Each tool keeps its
input JSON Schema as `input_schema`; its top-level properties become parameters.

A server is not trusted to be small or to stop: the whole exchange has a time limit, `tools/list` at
most MAX_PAGES pages and MAX_TOOLS tools, a cursor the server already sent is an error (a pagination
loop), and over HTTP everything the server sends (JSON bodies and event streams) counts against
MAX_RESPONSE_BYTES; crossing any of them ends the load with one clear CatalogError.

A line on a stdio server's stdout that is not JSON-RPC (a banner, a stray print) is skipped by the SDK;
it becomes a warning of the result (at most MAX_WARNINGS), and the SDK's log record with its traceback
is not shown.
"""

from __future__ import annotations

import io
import logging
import subprocess
import sys
from contextlib import contextmanager

import anyio
import httpx2
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import PaginatedRequestParams

from kg_tools.errors import CatalogError
from kg_tools.loaders.common import CatalogSource
from kg_tools.loaders.document import mcp_entries
from kg_tools.tool_spec import clip

TIMEOUT_SECONDS = 60.0
MAX_RESPONSE_BYTES = 32 * 1024 * 1024  # all an HTTP server may send (a large real tool list: < 1 MB)
MAX_PAGES = 1000
MAX_TOOLS = 100_000
MAX_WARNINGS = 20
JUNK = {
    "stdio": "MCP server wrote a line to stdout that is not JSON-RPC (ignored): ",
    "http": "MCP server sent a message that is not JSON-RPC (ignored): ",
}


class ByteBudget:
    """Bytes received over HTTP, across every response of one load."""

    def __init__(self, limit: int):
        self.limit, self.received, self.exceeded = limit, 0, False

    def add(self, n: int) -> None:
        self.received += n
        if self.received > self.limit:
            self.exceeded = True
            raise CatalogError(f"the server sent more than {self.limit:,} bytes")


def _bounded_client(budget: ByteBudget, timeout: float):
    """The SDK's HTTP client (httpx2), with every response body counted against `budget`."""

    class CountingStream(httpx2.AsyncByteStream):
        def __init__(self, inner):
            self.inner = inner

        async def __aiter__(self):
            async for chunk in self.inner:
                budget.add(len(chunk))
                yield chunk

        async def aclose(self) -> None:
            await self.inner.aclose()

    class CountingTransport(httpx2.AsyncBaseTransport):
        def __init__(self):
            self.inner = httpx2.AsyncHTTPTransport()

        async def handle_async_request(self, request):
            response = await self.inner.handle_async_request(request)
            return httpx2.Response(
                response.status_code,
                headers=response.headers,
                request=request,
                stream=CountingStream(response.stream),
                extensions=response.extensions,
            )

        async def aclose(self) -> None:
            await self.inner.aclose()

    return httpx2.AsyncClient(transport=CountingTransport(), timeout=httpx2.Timeout(min(30.0, timeout), read=timeout))


def tool_entry(tool, warnings: list[str] | None = None) -> dict:
    """One SDK Tool as a catalog entry, through the same translation as a tools/list document."""
    annotations = tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else None
    return mcp_entries(
        [
            {
                "name": tool.name,
                "title": tool.title,
                "description": tool.description,
                "inputSchema": tool.input_schema or {},
                "outputSchema": tool.output_schema,
                "annotations": annotations or None,
            }
        ],
        warnings,
    )[0]


def _junk_line(exc: Exception) -> str:
    """The offending stdout line of the SDK's parse error (pydantic keeps it as the error's input)."""
    errors = getattr(exc, "errors", None)
    line = errors()[0].get("input") if callable(errors) and errors() else None
    return clip(line if line is not None else str(exc), 100)


@contextmanager
def _quiet_parse_errors():
    """Drop the SDK's parse-error log records, each a traceback on stderr: a junk stdout line of a stdio
    server (reported as a warning instead) and an HTTP answer that does not parse (JSON or event: the SDK
    answers the request with an error, which ends the load). Yields the HTTP parse errors, for that message."""
    http_errors: list[BaseException] = []

    def keep_stdio(record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Failed to parse JSONRPC message")

    def keep_http(record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(("Error parsing JSON response", "Error parsing SSE message")):
            return True
        if record.exc_info and record.exc_info[1] is not None:
            http_errors.append(record.exc_info[1])
        return False

    stdio, http = logging.getLogger("mcp.client.stdio"), logging.getLogger("mcp.client.streamable_http")
    stdio.addFilter(keep_stdio)
    http.addFilter(keep_http)
    try:
        yield http_errors
    finally:
        stdio.removeFilter(keep_stdio)
        http.removeFilter(keep_http)


def _parse_error(exc: BaseException) -> str:
    """One line for why an answer did not parse: pydantic's first error (e.g. `Invalid JSON: recursion
    limit exceeded at line 1 column 324`), without the input it echoes."""
    errors = getattr(exc, "errors", None)
    first = errors()[0] if callable(errors) and errors() else None
    text = first["msg"] if first else str(exc)
    return clip(" ".join(str(text).split()), 300, quote=False)


async def _list_tools(
    read,
    write,
    max_pages: int = MAX_PAGES,
    max_tools: int = MAX_TOOLS,
    warnings: list[str] | None = None,
    transport: str = "stdio",
) -> tuple[str, list]:
    junk = [0]

    async def on_message(message) -> None:  # requests and notifications need no answer here
        if isinstance(message, Exception) and warnings is not None:
            junk[0] += 1
            if len(warnings) < MAX_WARNINGS:
                warnings.append(JUNK[transport] + _junk_line(message))
            elif junk[0] == MAX_WARNINGS + 1:
                warnings.append(f"{JUNK[transport].split(' (')[0]}: more of them, not shown")
        await anyio.lowlevel.checkpoint()

    async with ClientSession(read, write, message_handler=on_message) as session:
        init = await session.initialize()
        tools: list = []
        cursor: str | None = None
        cursors: set[str] = set()
        for _ in range(max_pages):
            page = await session.list_tools(params=PaginatedRequestParams(cursor=cursor) if cursor else None)
            tools += page.tools
            if len(tools) > max_tools:
                raise CatalogError(f"tools/list returned more than {max_tools:,} tools")
            cursor = page.next_cursor
            if not cursor:
                return init.server_info.name, tools
            if cursor in cursors:
                raise CatalogError(
                    f"tools/list repeated the cursor {cursor[:80]!r} (a pagination loop) after {len(cursors) + 1} pages"
                )
            cursors.add(cursor)
        raise CatalogError(f"tools/list did not end within {max_pages:,} pages")


def _errlog():
    """Where the started server's stderr goes: ours, when it is a real file. (The SDK's default is the
    `sys.stderr` of the moment `mcp.client.stdio` was imported, which may be a capture without a
    file descriptor, e.g. click's CliRunner; the subprocess then cannot start.)"""
    for stream in (sys.stderr, sys.__stderr__):
        if stream is None:
            continue
        try:
            stream.fileno()
            return stream
        except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
            continue
    return subprocess.DEVNULL


async def _from_command(command: list[str], **limits) -> tuple[str, list]:
    async with stdio_client(StdioServerParameters(command=command[0], args=command[1:]), errlog=_errlog()) as (
        read,
        write,
    ):
        return await _list_tools(read, write, **limits)


async def _from_url(url: str, budget: ByteBudget, timeout: float, **limits) -> tuple[str, list]:
    async with (
        _bounded_client(budget, timeout) as client,
        streamable_http_client(url, http_client=client, max_sse_event_size=budget.limit) as (read, write),
    ):
        return await _list_tools(read, write, **limits, transport="http")


def _unwrap(exc: BaseException) -> BaseException:
    """The innermost single exception of (nested) task-group exception groups."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def load(
    command: list[str] | None = None,
    url: str | None = None,
    catalog: str | None = None,
    timeout: float = TIMEOUT_SECONDS,
    max_bytes: int = MAX_RESPONSE_BYTES,
    max_pages: int = MAX_PAGES,
    max_tools: int = MAX_TOOLS,
) -> CatalogSource:
    """Exactly one of `command` (argv of a stdio MCP server) or `url` (streamable HTTP endpoint)."""
    if bool(command) == bool(url):
        raise CatalogError("give either a server command (after --) or --url, not both or neither")
    where = url or " ".join(command or [])
    budget = ByteBudget(max_bytes)
    warnings: list[str] = []
    limits = {"max_pages": max_pages, "max_tools": max_tools, "warnings": warnings}

    async def run():
        with anyio.fail_after(timeout):
            return await (_from_url(url, budget, timeout, **limits) if url else _from_command(command or [], **limits))

    try:
        with _quiet_parse_errors() as parse_errors:
            server_name, tools = anyio.run(run)
    except TimeoutError as exc:
        raise CatalogError(f"MCP server {where}: no tool list within {timeout:.0f}s") from exc
    except Exception as exc:  # noqa: BLE001 - spawn failures, HTTP errors, protocol errors, groups of them
        inner = _unwrap(exc)
        if budget.exceeded:  # the SDK may report the cut stream as its own error
            raise CatalogError(f"MCP server {where}: sent more than {max_bytes:,} bytes; stopped") from exc
        if isinstance(inner, CatalogError):
            raise CatalogError(f"MCP server {where}: {inner}") from exc
        if parse_errors:  # the SDK's error repeats pydantic's whole report, input included
            raise CatalogError(
                f"MCP server {where}: its answer is not valid JSON-RPC: {_parse_error(parse_errors[0])}"
            ) from exc
        detail = " ".join(f"{type(inner).__name__}: {inner}".split())  # one line, whatever the SDK says
        raise CatalogError(f"MCP server {where}: {clip(detail, 500, quote=False)}") from exc
    if not tools:
        raise CatalogError(f"MCP server {where} lists no tools")
    entries = [tool_entry(t, warnings) for t in tools]  # + what the translation cut (huge schemas)
    return CatalogSource(catalog or server_name, entries, [], [where], warnings)
