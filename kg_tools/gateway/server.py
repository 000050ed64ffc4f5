"""The gateway's MCP face: the declarations of search_tools, get_tool, call_tool and thin handlers that call
the logic (kg_tools/gateway/service.py) and map its errors (kg_tools/mcp_errors.py, as `kg-tools mcp` does).

A refusal or failure the model can act on (unknown tool or server, denied, invalid arguments, the upstream
down, failing or slow) is a tool result with `isError: true` whose text names the server or the rule; an
upstream's own `isError` result is passed through as it is. A request no arguments would fix (no valid
bearer token, Neo4j unreachable) is a JSON-RPC error.
"""

from __future__ import annotations

import errno
import logging
import re
import socket
import sys
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult
from pydantic import Field

from kg_tools.errors import ConfigurationError, DatabaseUnavailableError, KgToolsError
from kg_tools.gateway.config import GatewayConfig
from kg_tools.gateway.health import STATUS_SECONDS, status_path, write_status
from kg_tools.gateway.results import GatewaySearch, GatewayTool
from kg_tools.gateway.service import Gateway, payload, principal
from kg_tools.graph import Graph
from kg_tools.http_guard import serve_http
from kg_tools.mcp_errors import mcp_errors
from kg_tools.mcp_server import McpBackend, tools_list_cache, typed
from kg_tools.retrieval.request import MAX_K, MAX_TOTAL
from kg_tools.telemetry import mcp_call, setup_tracing

logger = logging.getLogger("kg_tools.gateway")

SERVER_NAME = "kg-tools-gateway"
INSTRUCTIONS = (
    "One endpoint for the tools of several MCP servers. Call search_tools with what the user wants done; "
    "it returns the tools to use (name, description, input schema, why each was included). Then call "
    "call_tool with a returned name and its arguments. get_tool gives one tool's full definition."
)

NO_POLICY_NOTICE = (
    "no policy profile: destructive tools are hidden; add a profile to allow them "
    '("kg-tools": {"default_profile": NAME, "profiles": {NAME: {"allow_destructive": [GLOBS]}}}; docs/gateway.md#policy)'
)

SEARCH_DESCRIPTION = """Find the tools for a task among the tools of every connected MCP server (dependencies included).

`query`: what the user wants done, in plain language. Returns `tools` in the order to consider them, each with
`name` (pass it to call_tool), `server`, `description`, `input_schema` and `why` (a search match, or the tool it
is needed by). `server` restricts the search to one server; `detail: "full"` adds each tool's full definition;
`max_tokens` caps the size of the answer (tools are dropped from the end)."""

GET_DESCRIPTION = """One tool by its exact name (as search_tools returns it): description, input schema, output
schema, annotations, server and its direct dependencies."""

CALL_DESCRIPTION = """Call a tool of a connected MCP server: `name` as search_tools returns it (server__tool),
`arguments` an object matching its input schema. Returns the server's result unchanged."""


START_ERROR_SECONDS = 60  # an HTTP gateway that could not start tells its clients why this long, then exits
_URL_USERINFO = re.compile(r"(\b[a-z][a-z0-9+.-]*://)[^/@\s]+@", re.I)


class GatewayStartError(KgToolsError):
    """The gateway could not start (Neo4j, the port ...): one line naming the cause and the fix."""


def _session_of(ctx: Context) -> object:
    """What tells the caller's MCP session apart: the streamable HTTP session id, else the connection
    (ctx.session is a new object per request; its connection lives as long as the session)."""
    sid = next((v for k, v in (ctx.headers or {}).items() if k.lower() == "mcp-session-id"), None)
    if sid:
        return f"mcp-session-id:{sid}"
    return getattr(ctx.session, "_connection", None) or ctx.session


def build_server(gateway: Gateway) -> MCPServer:
    server = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING", cache_hints=tools_list_cache())

    @server.tool(name="search_tools", description=SEARCH_DESCRIPTION)
    async def search_tools(
        query: Annotated[str, Field(min_length=1, max_length=4000, description="What the user wants done.")],
        ctx: Context,
        k: Annotated[int, Field(ge=1, le=MAX_K, description="Tools found by search (default 3).")] = 3,
        K: Annotated[
            int, Field(ge=1, le=MAX_TOTAL, description="Tools returned in total, dependencies included (default 10).")
        ] = 10,
        server: Annotated[str | None, Field(description="Only tools of this server (default: all).")] = None,
        detail: Annotated[
            Literal["compact", "full"], Field(description="compact (default) or full (adds each tool's definition).")
        ] = "compact",
        max_tokens: Annotated[
            int | None, Field(ge=50, le=200_000, description="Cap on the answer's size (about 4 characters a token).")
        ] = None,
        rank_servers: Annotated[
            bool,
            Field(description="Also return `servers`: the connected servers ranked by how well they fit the query."),
        ] = False,
    ) -> Annotated[CallToolResult, GatewaySearch]:
        with mcp_call("gateway", "search_tools"), mcp_errors():
            profile = gateway.profile(ctx.headers)
            found = await anyio.to_thread.run_sync(
                gateway.search, profile, query, k, K, server, detail, max_tokens, rank_servers
            )
            return typed(payload(found))

    @server.tool(name="get_tool", description=GET_DESCRIPTION)
    async def get_tool(
        name: Annotated[str, Field(min_length=1, max_length=200, description="Exact tool name (server__tool).")],
        ctx: Context,
    ) -> Annotated[CallToolResult, GatewayTool]:
        with mcp_call("gateway", "get_tool"), mcp_errors():
            profile = gateway.profile(ctx.headers)
            return typed(payload(await anyio.to_thread.run_sync(gateway.get, profile, name)))

    @server.tool(name="call_tool", description=CALL_DESCRIPTION)
    async def call_tool(
        name: Annotated[str, Field(min_length=1, max_length=200, description="Tool name (server__tool).")],
        ctx: Context,
        arguments: Annotated[dict[str, Any] | None, Field(description="The tool's arguments.")] = None,
    ) -> CallToolResult:
        with mcp_call("gateway", "call_tool"), mcp_errors():
            return await gateway.call(gateway.profile(ctx.headers), name, arguments or {}, session=_session_of(ctx))

    return server


async def serve(gateway: Gateway, server, transport: str, host: str, port: int, status_file=None) -> None:
    async with anyio.create_task_group() as tg:
        await gateway.start(tg)
        for s in gateway.status():
            logger.warning(
                "upstream %s: %s (%d tools)%s%s",
                s["server"],
                s["state"],
                s["tools"],
                f" {s['error']}" if s["error"] else "",
                f"; held until approved: {', '.join(s['held'])}" if s["held"] else "",
            )
        if status_file is not None:
            tg.start_soon(_write_status, gateway, *status_file)
        if transport == "stdio" and gateway.stdio_profile is None:
            logger.warning(NO_POLICY_NOTICE)
        gateway.serving = True
        if transport == "stdio":
            await server.run_stdio_async()
        else:
            await serve_http(server, gateway.authenticate, gateway.service.settings, host, port, metrics=True)
        tg.cancel_scope.cancel()


async def _write_status(gateway: Gateway, path, config_path) -> None:
    """Each upstream's health for `kg-tools gateway status`: written when it changed (checked 4 times a second)
    and every STATUS_SECONDS."""

    last, written = None, 0.0
    while True:
        servers = gateway.status()
        states = [(s["server"], s["state"], s["error"], s["tools"]) for s in servers]
        if states != last or anyio.current_time() - written > STATUS_SECONDS:
            try:
                await anyio.to_thread.run_sync(write_status, path, config_path, servers)
            except OSError as exc:
                logger.warning("status file %s not written: %s", path, exc)
            last, written = states, anyio.current_time()
        await anyio.sleep(0.25)


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def start_error(exc: BaseException, settings, transport: str, host: str, port: int) -> str:
    """What stopped the gateway from starting, in one line naming the cause and the fix."""

    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) >= 1:
        exc = exc.exceptions[0]
    if isinstance(exc, DatabaseUnavailableError):
        return (
            f"Neo4j is not reachable at {settings.neo4j_uri}: start it (`kg-tools neo4j start` or `kg-tools up`) "
            "or set NEO4J_URI to the running one"
        )
    if isinstance(exc, OSError) and transport == "http" and exc.errno in (errno.EADDRINUSE, errno.EACCES):
        return port_error(host, port, exc)
    if isinstance(exc, KgToolsError):
        return one_line(str(exc))
    return one_line(f"unexpected {type(exc).__name__}: {exc}")


def port_error(host: str, port: int, exc: OSError) -> str:
    return (
        f"cannot listen on {host}:{port} ({exc.strerror or exc}): another process (another gateway, "
        "`kg-tools mcp`?) holds it; choose a free one with --port or KG_TOOLS_MCP_PORT"
    )


def check_port(host: str, port: int) -> None:
    """Refuse at once (one line) when the HTTP port cannot be bound, before any upstream is started."""

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            raise ConfigurationError(port_error(host, port, exc)) from exc


def error_server(message: str) -> MCPServer:
    """An MCP server that answers `initialize` (its instructions) and every tool call (an `isError` result)
    with why the gateway could not start."""
    text = f"kg-tools gateway could not start: {message}"
    server = MCPServer(SERVER_NAME, instructions=text, log_level="WARNING")

    def failing(name: str):
        async def handler(arguments: dict[str, Any] | None = None) -> str:

            raise ToolError(text)

        server.tool(name=name, description=f"Unavailable: {text}")(handler)

    for name in ("search_tools", "get_tool", "call_tool"):
        failing(name)
    return server


def serve_start_error(message: str) -> None:
    """A stdio client started a gateway that could not start: answer it with the same one line, until it
    disconnects."""
    anyio.run(error_server(message).run_stdio_async)


async def serve_start_error_http(message: str, config: GatewayConfig, settings, host: str, port: int) -> None:
    """An HTTP gateway that could not start: for START_ERROR_SECONDS its port answers clients holding a
    profile's token (the same guard, tokens from the config) with the same one line, then it exits (a
    supervisor's restart is a fresh try)."""

    def authenticate(headers, address: str) -> str | None:
        return principal(headers, config.options.profiles)

    await serve_http(error_server(message), authenticate, settings, host, port, seconds=START_ERROR_SECONDS)


def tell_clients(message: str, config: GatewayConfig, settings, transport: str, host: str, port: int) -> None:
    """A gateway that could not start answers its MCP clients with why (stdio: the client that started it,
    until it disconnects; HTTP: token holders, for START_ERROR_SECONDS); a stdio gateway run from a
    terminal only says it there."""
    if transport == "stdio" and not sys.stdin.isatty():
        logger.error("could not start: %s (answering the MCP client with this until it disconnects)", message)
        serve_start_error(message)
    elif transport == "http":
        logger.error(
            "could not start: %s (answering MCP clients on %s:%d with this for %ds)",
            message,
            host,
            port,
            START_ERROR_SECONDS,
        )
        anyio.run(serve_start_error_http, message, config, settings, host, port)


def redacted(text: str) -> str:
    """Text for clients: credentials in URLs (scheme://user:password@host) left out."""
    return _URL_USERINFO.sub(r"\1***@", text)


def run(
    settings,
    config: GatewayConfig,
    *,
    transport: str = "stdio",
    host: str | None = None,
    port: int | None = None,
    resync: float | None = None,
    profile: str | None = None,
    config_path=None,
    settings_from: str | None = None,
) -> None:
    if transport == "http":
        tokens = {n: p.bearer_token(n) for n, p in config.options.profiles.items()}
        if not any(tokens.values()):
            raise ConfigurationError(
                '--transport http needs at least one profile with a token ("token" or '
                '"token_env" in the "kg-tools" block): without one no call is dispatched'
            )
        if len(set(t for t in tokens.values() if t)) != sum(1 for t in tokens.values() if t):
            raise ConfigurationError("two profiles share a bearer token: each profile needs its own")
    if profile is not None and profile not in config.options.profiles:
        raise ConfigurationError(
            f"--profile {profile!r} is not one of the profiles: "
            f"{', '.join(config.options.profiles) or '(none configured)'}"
        )
    host, port = host or "127.0.0.1", port or settings.mcp_port
    if transport == "http":
        check_port(host, port)
    logging.basicConfig(level=logging.WARNING, format="kg-tools gateway: %(message)s")
    logging.getLogger("mcp").setLevel(logging.CRITICAL)  # upstream faults are reported once, by the gateway
    logger.setLevel(logging.INFO)
    logger.warning("Neo4j %s (user %s; settings from %s)", settings.neo4j_uri, settings.neo4j_user, settings_from)
    status_file = None
    if config_path is not None:
        status_file = (status_path(settings, config_path), config_path)
    gateway = None
    setup_tracing("kg-tools-gateway")
    try:
        # Neo4j reachable and the login accepted, checked before any upstream starts
        service = McpBackend(settings, graph=Graph.connect(settings))
        gateway = Gateway(config, service, resync=resync, profile=profile)
        server = build_server(gateway)
        anyio.run(serve, gateway, server, transport, host, port, status_file)
    except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - every start-up failure: one line
        message = redacted(start_error(exc, settings, transport, host, port))
        if not getattr(gateway, "serving", False):
            tell_clients(message, config, settings, transport, host, port)
        raise GatewayStartError(message) from None


__all__ = ["Gateway", "build_server", "run", "serve"]
