"""One upstream MCP server: a long-lived client session (stdio or streamable HTTP) for listing and calls.

`Upstream.run` is one task of the gateway's task group: it starts the server, lists its tools, hands
them to `on_tools` (the sync) and then waits for `notifications/tools/list_changed` (coalesced: the
notifications of COALESCE_SECONDS make one listing) or the resync interval to list again. Either protocol
version: the session probes `server/discover` (2026-07-28: stateless; changes come on a
`subscriptions/listen` stream, liveness by `server/discover` instead of ping) and falls back to
`initialize` (2025-11-25 and earlier: changes come as notifications, liveness by ping). Every failure
(cannot start, hangs, garbage, its process dies, the connection is lost) marks it "down" with a one-line
`error` and it is started again after a backoff (1 s, doubling up to BACKOFF_MAX_SECONDS; a connection that
lived BACKOFF_RESET_SECONDS starts over at 1 s). A failure never reaches the other upstreams. A failed call
raises `UpstreamCallError` (kg_tools/errors.py) naming the server.

Everything the server sends is bounded (kg_tools/gateway/transport.py, limits.py): each message while it
arrives, a tools/list page and the whole listing, and a call result is cut to MAX_RESULT_BYTES. At most
MAX_CALLS_IN_FLIGHT calls run at once per upstream; more wait their turn within their call_timeout, so a
slow upstream holds up only its own calls.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack, nullcontext
from typing import TYPE_CHECKING

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.client.subscriptions import SubscriptionLost, listen
from mcp.shared.exceptions import MCPError
from mcp_types import PaginatedRequestParams, ToolListChangedNotification
from mcp_types.jsonrpc import CONNECTION_CLOSED, INVALID_REQUEST
from mcp_types.version import LATEST_MODERN_VERSION, MODERN_PROTOCOL_VERSIONS

from kg_tools.errors import UpstreamCallError
from kg_tools.gateway import transport
from kg_tools.gateway.config import UpstreamConfig
from kg_tools.gateway.limits import (
    MAX_CALLS_IN_FLIGHT,
    MAX_MESSAGE_BYTES,
    MAX_TOOL_PAGES,
    MAX_TOOLS,
    MAX_TOOLS_PER_PAGE,
    cut_result,
)
from kg_tools.loaders.mcp_server import _errlog
from kg_tools.telemetry import SYNCS, UPSTREAM_CALLS, UPSTREAM_UP, span

if TYPE_CHECKING:
    from mcp import ClientSession
    from mcp_types import Implementation, Tool

logger = logging.getLogger("kg_tools.gateway")

COALESCE_SECONDS = 0.5  # list_changed notifications within this window make one listing
PING_SECONDS = 30.0  # an HTTP upstream is pinged this often (stdio: its end of output is the sign)
BACKOFF_FIRST_SECONDS = 1.0
BACKOFF_MAX_SECONDS = 60.0
BACKOFF_RESET_SECONDS = 60.0  # a connection that lived this long restarts its backoff at the first delay


def describe(exc: BaseException) -> str:
    """One line for an exception, (nested) exception groups unwrapped."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class ConnectionEnded(Exception):
    """The upstream's stdout ended (its process exited or died) or its connection was lost."""


class Upstream:
    def __init__(
        self,
        key: str,
        config: UpstreamConfig,
        *,
        start_timeout: float,
        on_tools: Callable[[Upstream], Awaitable[None]],
        restart: bool = True,
    ):
        self.key = key
        self.config = config
        self.start_timeout = start_timeout
        self.on_tools = on_tools
        self.restart = restart
        self.state = "starting"  # the first start -> ready | down; down -> ready once a restart succeeded
        self.error: str | None = None  # the last failure, kept after a restart succeeded
        self.since = time.time()  # when the state last changed
        self.restarts = 0
        self.retry_at: float | None = None  # when a down upstream is started again
        self.session: ClientSession | None = None
        self.tools: list[Tool] = []
        self.server_info: Implementation | None = None
        self.instructions: str | None = None
        self.protocol_version: str | None = None  # negotiated at each start: 2026-07-28 or a handshake version
        self.started = anyio.Event()  # set once the first start (and sync) succeeded or failed
        self._changed = anyio.Event()
        self._lost = anyio.Event()
        self._calls = anyio.CapacityLimiter(MAX_CALLS_IN_FLIGHT)

    @property
    def available(self) -> bool:
        return self.state == "ready" and self.session is not None

    def health(self) -> dict:
        return {
            "server": self.key,
            "state": self.state,
            "available": self.available,
            "error": self.error,
            "since": round(self.since, 3),
            "restarts": self.restarts,
            "retry_at": round(self.retry_at, 3) if self.retry_at else None,
            "protocol": self.protocol_version,
        }

    # -- life cycle -------------------------------------------------------------------------
    async def _connect(self, stack: AsyncExitStack) -> tuple:
        """The session's streams and an event set when the connection ends on its own."""

        if self.config.url:
            client = await stack.enter_async_context(transport.http_client(self.config.headers))
            read, write = await stack.enter_async_context(
                streamable_http_client(self.config.url, http_client=client, max_sse_event_size=MAX_MESSAGE_BYTES)
            )
            return read, write, anyio.Event()  # a lost HTTP connection shows in a failed call (_lost)

        params = StdioServerParameters(
            command=self.config.command or "", args=self.config.args, env=self.config.env, cwd=self.config.cwd
        )
        streams = await stack.enter_async_context(transport.stdio_client(params, errlog=_errlog()))
        return streams.read, streams.write, streams.closed

    async def _open(self, stack: AsyncExitStack, read, write) -> ClientSession:
        """A session in the protocol version the server speaks: the SDK's `Client` in mode "auto" probes
        `server/discover` (2026-07-28, stateless) and falls back to the `initialize` handshake (2025-11-25
        and earlier). The probe waits at most the SDK's 10 s, each later request start_timeout."""

        client = Client(
            nullcontext((read, write)),
            mode="auto",
            read_timeout_seconds=self.start_timeout,
            message_handler=self._on_message,
            cache=None,  # the gateway lists on its own schedule (list_changed, --resync), never from a cache
        )
        await stack.enter_async_context(client)
        return client.session

    @property
    def modern(self) -> bool:
        """The connection speaks 2026-07-28 or later (server/discover, subscriptions/listen, no ping)."""
        return self.protocol_version in MODERN_PROTOCOL_VERSIONS

    async def _on_message(self, message) -> None:

        if isinstance(message, ToolListChangedNotification):
            logger.debug("upstream %s: tools/list_changed", self.key)
            self._changed.set()
        elif isinstance(message, Exception):
            logger.warning("upstream %s: %s", self.key, describe(message))

    async def run(self, resync: float | None = None) -> None:
        """Serve the upstream until cancelled, started again after each failure (unless restart=False)."""
        delay = BACKOFF_FIRST_SECONDS
        while True:
            connected = time.monotonic()
            try:
                await self._serve(resync)
            except ConnectionEnded as exc:
                self.fail(str(exc))
            except Exception as exc:  # noqa: BLE001 - spawn, protocol, timeout, sync errors: all reported alike
                self.fail(describe(exc))
            finally:
                self.session = None
                self.started.set()
            if not self.restart:
                return
            if time.monotonic() - connected > BACKOFF_RESET_SECONDS:
                delay = BACKOFF_FIRST_SECONDS
            self.retry_at = time.time() + delay
            logger.warning("upstream %s: starting it again in %gs", self.key, delay)
            await anyio.sleep(delay)
            delay = min(delay * 2, BACKOFF_MAX_SECONDS)
            self.restarts += 1
            self.retry_at = None  # stays "down" (its tools not offered) until the new start succeeded

    async def _serve(self, resync: float | None) -> None:
        """One connection: start, list, sync, then re-list on list_changed / resync until it ends."""

        self._lost = anyio.Event()
        async with AsyncExitStack() as stack:
            read, write, closed = await self._connect(stack)
            session = await self._open(stack, read, write)
            self.server_info, self.instructions = session.server_info, session.instructions
            self.protocol_version = session.protocol_version
            self.session = session
            await self.refresh()
            self._set_state("ready")
            self.started.set()
            async with anyio.create_task_group() as tg:

                async def ended(event: anyio.Event) -> None:
                    await event.wait()
                    tg.cancel_scope.cancel()

                tg.start_soon(ended, closed)
                tg.start_soon(ended, self._lost)
                if self.modern:
                    tg.start_soon(self._subscribe, session)
                if self.config.url:  # a stdio server's end shows as the end of its output; HTTP has no such sign
                    tg.start_soon(self._ping, session)
                await self._listen(resync)
            self.session = None
        raise ConnectionEnded(self.error if self._lost.is_set() and self.error else "the server's output ended")

    async def _listen(self, resync: float | None) -> None:
        while True:
            with anyio.move_on_after(resync or math.inf):
                await self._changed.wait()
                await anyio.sleep(COALESCE_SECONDS)  # the notifications of a burst: one listing
            self._changed = anyio.Event()
            try:
                await self.refresh()
            except Exception as exc:  # noqa: BLE001 - a bad re-listing keeps the tools synced before
                if self.session is None or not _alive(exc):
                    raise
                logger.warning(
                    "upstream %s: re-sync failed, keeping the tools synced before: %s", self.key, describe(exc)
                )

    async def _subscribe(self, session: ClientSession) -> None:
        """2026-07-28 has no unsolicited notifications: tool-list changes arrive on a `subscriptions/listen`
        stream, opened when the server declares `tools.listChanged`; each event counts as a list_changed
        (coalesced alike). A stream that ends (closed by the server, or lost while the server still answers)
        is opened again, after a growing delay when it keeps ending, and the tools are listed again: there is
        no replay. A stream lost with a server that no longer answers is a lost connection. A server that
        refuses the listen (or does not honour tool changes) is re-listed only by --resync."""

        tools = session.server_capabilities.tools if session.server_capabilities else None
        if not (tools and tools.list_changed):
            return
        delay = COALESCE_SECONDS
        while True:
            opened = time.monotonic()
            if not await self._follow(session):
                return
            delay = COALESCE_SECONDS if time.monotonic() - opened > BACKOFF_RESET_SECONDS else delay * 2
            await anyio.sleep(min(delay, BACKOFF_MAX_SECONDS))
            self._changed.set()

    async def _follow(self, session: ClientSession) -> bool:
        """One `subscriptions/listen` stream until it ends: True to listen again, False to stop (refused, or
        the connection is lost)."""
        try:
            async with listen(session, tools_list_changed=True) as events:
                if not events.honored.tools_list_changed:
                    raise MCPError(INVALID_REQUEST, "tool list changes not honoured")
                async for _ in events:
                    logger.debug("upstream %s: tools list changed (subscriptions/listen)", self.key)
                    self._changed.set()
        except SubscriptionLost as exc:
            if error := await self._no_answer(session):
                self.fail(f"connection lost: {describe(exc.__cause__ or exc)}; {error}")
                return False
            logger.info("upstream %s: subscriptions/listen lost, listening again: %s", self.key, describe(exc))
        except (MCPError, TimeoutError) as exc:
            logger.warning(
                "upstream %s: subscriptions/listen refused (%s): its tools are listed again only by --resync",
                self.key,
                describe(exc),
            )
            return False
        return True

    async def _no_answer(self, session: ClientSession) -> str | None:
        """None when the server answers a ping within start_timeout, else why not. 2026-07-28 has no ping:
        there a `server/discover` (cheap, side-effect free) is the ping."""
        try:
            with anyio.fail_after(self.start_timeout):
                if self.modern:
                    await session.send_discover(session.protocol_version or LATEST_MODERN_VERSION)
                else:
                    await session.send_ping()
        except Exception as exc:  # noqa: BLE001 - any failure: the connection is not usable
            return f"no answer to ping: {describe(exc)}"
        return None

    async def _ping(self, session: ClientSession) -> None:
        """An HTTP upstream that stops answering pings (gone, or the transport broke) is down."""
        while True:
            await anyio.sleep(PING_SECONDS)
            if error := await self._no_answer(session):
                self.fail(error)
                return

    def _set_state(self, state: str) -> None:
        if state != self.state:
            self.state, self.since = state, time.time()
        UPSTREAM_UP.labels(self.key).set(1 if state == "ready" else 0)

    def fail(self, error: str) -> None:
        if self.state != "down":
            logger.warning("upstream %s (%s) failed: %s", self.key, self.config.where(), error)
        self.error, self.session = error, None
        self._set_state("down")
        self._lost.set()

    async def refresh(self) -> None:
        """List every tool (paged, bounded) and sync them: counted (SYNCS) and spanned."""
        with span("gateway sync", {"mcp.server": self.key}):
            try:
                await self._refresh()
            except BaseException:
                SYNCS.labels(self.key, "error").inc()
                raise
        SYNCS.labels(self.key, "ok").inc()

    async def _refresh(self) -> None:

        session = self.session
        if session is None:
            raise UpstreamCallError(self.key, f"not connected ({self.error or self.state})")
        tools: list[Tool] = []
        cursor: str | None = None
        for _ in range(MAX_TOOL_PAGES):
            page = await session.list_tools(params=PaginatedRequestParams(cursor=cursor) if cursor else None)
            if len(page.tools) > MAX_TOOLS_PER_PAGE:
                raise ValueError(
                    f"tools/list sent {len(page.tools):,} tools in one page (at most {MAX_TOOLS_PER_PAGE:,})"
                )
            tools += page.tools
            cursor = page.next_cursor
            if len(tools) > MAX_TOOLS:
                raise ValueError(f"tools/list sent more than {MAX_TOOLS:,} tools")
            if not cursor:
                break
        if cursor:
            raise ValueError(f"tools/list did not end within {MAX_TOOL_PAGES} pages")
        self.tools = tools
        await self.on_tools(self)

    # -- calls ------------------------------------------------------------------------------
    def down_reason(self) -> str:
        retry = (
            f"; starting it again in {max(0.0, self.retry_at - time.time()):.0f}s"
            if self.retry_at
            else "; starting it again"
            if self.restart
            else ""
        )
        return f"down ({self.error or self.state}){retry}" if self.state == "down" else f"not connected ({self.state})"

    async def call(self, tool: str, arguments: dict, timeout: float):
        """The upstream's CallToolResult (cut to MAX_RESULT_BYTES). Raises UpstreamCallError (naming this server).
        Counted and spanned; the SDK's client span (a child of this one) puts its W3C `traceparent` into
        the request's `_meta`, so an upstream that traces continues the caller's trace."""
        with span("upstream tools/call", {"mcp.server": self.key, "mcp.tool": tool}):
            try:
                result = await self._call(tool, arguments, timeout)
            except UpstreamCallError as exc:
                UPSTREAM_CALLS.labels(self.key, "timeout" if exc.timeout else "error").inc()
                raise
            UPSTREAM_CALLS.labels(self.key, "error" if getattr(result, "is_error", False) else "ok").inc()
            return result

    async def _call(self, tool: str, arguments: dict, timeout: float):
        session = self.session
        if session is None:
            raise UpstreamCallError(self.key, self.down_reason())

        try:
            with anyio.fail_after(timeout):
                async with self._calls:
                    result = await session.call_tool(tool, arguments, read_timeout_seconds=timeout)
                return await anyio.to_thread.run_sync(cut_result, result)
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
