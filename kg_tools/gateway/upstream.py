"""One upstream MCP server: a long-lived client session (stdio or streamable HTTP) for listing and calls.

`Upstream.run` is one task of the gateway's task group: it starts the server, lists its tools, hands
them to `on_tools` (the sync) and then waits for `notifications/tools/list_changed` or the resync
interval to list again. Every failure (cannot start, hangs, garbage, dies later) ends in state
"failed" with a one-line `error`; it never reaches the other upstreams. A failed call raises
`UpstreamCallError` (kg_tools/errors.py) naming the server.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import PaginatedRequestParams, ToolListChangedNotification
from mcp_types.jsonrpc import CONNECTION_CLOSED

from kg_tools.errors import UpstreamCallError
from kg_tools.gateway.config import UpstreamConfig
from kg_tools.loaders.mcp_server import _errlog

if TYPE_CHECKING:
    from mcp_types import Implementation, Tool

logger = logging.getLogger("kg_tools.gateway")

MAX_TOOL_PAGES = 100  # tools/list pages read per listing (a server that pages forever is cut off)
MAX_TOOLS = 10_000


def describe(exc: BaseException) -> str:
    """One line for an exception, (nested) exception groups unwrapped."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Upstream:
    def __init__(
        self, key: str, config: UpstreamConfig, *, start_timeout: float, on_tools: Callable[[Upstream], Awaitable[None]]
    ):
        self.key = key
        self.config = config
        self.start_timeout = start_timeout
        self.on_tools = on_tools
        self.state = "starting"  # -> ready | failed
        self.error: str | None = None
        self.session: ClientSession | None = None
        self.tools: list[Tool] = []
        self.server_info: Implementation | None = None
        self.instructions: str | None = None
        self.started = anyio.Event()  # set once the first start (and sync) succeeded or failed
        self._changed = anyio.Event()

    # -- life cycle -------------------------------------------------------------------------
    def _transport(self):
        if self.config.url:
            return streamable_http_client(self.config.url, http_client=create_mcp_http_client(self.config.headers))

        return stdio_client(
            StdioServerParameters(
                command=self.config.command, args=self.config.args, env=self.config.env, cwd=self.config.cwd
            ),
            errlog=_errlog(),
        )

    async def _on_message(self, message) -> None:
        if isinstance(message, ToolListChangedNotification):
            logger.info("upstream %s: tools/list_changed", self.key)
            self._changed.set()
        elif isinstance(message, Exception):
            logger.warning("upstream %s: %s", self.key, describe(message))

    async def run(self, resync: float | None = None) -> None:
        try:
            async with AsyncExitStack() as stack:
                read, write = await stack.enter_async_context(self._transport())
                session = await stack.enter_async_context(
                    ClientSession(
                        read, write, read_timeout_seconds=self.start_timeout, message_handler=self._on_message
                    )
                )
                init = await session.initialize()
                self.server_info, self.instructions = init.server_info, init.instructions
                self.session = session
                await self.refresh()
                self.state = "ready"
                self.started.set()
                while True:
                    with anyio.move_on_after(resync or math.inf):
                        await self._changed.wait()
                    self._changed = anyio.Event()
                    try:
                        await self.refresh()
                    except Exception as exc:  # noqa: BLE001 - a bad re-listing keeps the tools synced before
                        if self.session is None or not _alive(exc):
                            raise
                        logger.warning(
                            "upstream %s: re-sync failed, keeping the tools synced before: %s", self.key, describe(exc)
                        )
        except Exception as exc:  # noqa: BLE001 - spawn, protocol, timeout, sync errors: all reported alike
            self.fail(describe(exc))
        finally:
            self.session = None
            self.started.set()

    def fail(self, error: str) -> None:
        if self.state != "failed":
            logger.warning("upstream %s (%s) failed: %s", self.key, self.config.where(), error)
        self.state, self.error, self.session = "failed", error, None

    async def refresh(self) -> None:
        """List every tool (paged, bounded) and sync them."""
        session = self.session
        if session is None:
            raise UpstreamCallError(self.key, f"not connected ({self.error or self.state})")
        tools: list[Tool] = []
        cursor: str | None = None
        for _ in range(MAX_TOOL_PAGES):
            page = await session.list_tools(params=PaginatedRequestParams(cursor=cursor) if cursor else None)
            tools += page.tools
            cursor = page.next_cursor
            if not cursor or len(tools) > MAX_TOOLS:
                break
        if cursor:
            raise ValueError(f"tools/list did not end within {MAX_TOOL_PAGES} pages / {MAX_TOOLS} tools")
        self.tools = tools
        await self.on_tools(self)

    # -- calls ------------------------------------------------------------------------------
    async def call(self, tool: str, arguments: dict, timeout: float):
        """The upstream's CallToolResult, unchanged. Raises UpstreamCallError (naming this server)."""
        session = self.session
        if session is None:
            raise UpstreamCallError(self.key, f"not connected ({self.error or self.state})")

        try:
            with anyio.fail_after(timeout):
                return await session.call_tool(tool, arguments, read_timeout_seconds=timeout)
        except TimeoutError as exc:
            raise UpstreamCallError(
                self.key, f"no answer to tools/call {tool!r} within {timeout:g}s", timeout=True
            ) from exc
        except MCPError as exc:
            if not _alive(exc):
                self.fail(f"connection lost: {exc.message}")
            raise UpstreamCallError(self.key, f"tools/call {tool!r}: {exc.message}", code=exc.code) from exc
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream, OSError) as exc:
            self.fail(f"connection lost: {describe(exc)}")
            raise UpstreamCallError(self.key, f"connection lost: {describe(exc)}") from exc


def _alive(exc: BaseException) -> bool:
    """False for errors that mean the connection is gone."""
    if isinstance(exc, MCPError):
        return exc.code != CONNECTION_CLOSED
    return not isinstance(exc, (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream))
