"""`kg-tools mcp`: the tool graph as an MCP server (official `mcp` SDK), a tool-search front for agents.

Two tools: `search_tools` (Graph RAG-Tool Fusion: exactly the content of POST /v1/retrieve) and
`get_tool` (one tool's spec and its direct dependencies, as GET /v1/tools/{name}). Both run on the
same `Pipeline` class, settings and graph gateway as the REST API and the CLI; there is no second
retrieval path here, only argument checking and error mapping (kg_tools/mcp_errors.py, shared with the
gateway): a bad argument or an unknown tool is a tool result with `isError: true` and the message, kg-tools
unable to serve (Neo4j down ...) a JSON-RPC error; never a crash of the server.
"""

from __future__ import annotations

import hmac
import threading
from typing import Annotated, Any, Literal

import anyio
import pydantic_core
from mcp.server.caching import CacheHint
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel, Field, ValidationError

from kg_tools import services as wiring  # called through the module: tests spy on wiring.build_services
from kg_tools.http_guard import serve_http
from kg_tools.mcp_errors import invalid_arguments, mcp_errors
from kg_tools.retrieval import RetrievalRequest
from kg_tools.retrieval.request import MAX_K, MAX_QUERY_LENGTH, MAX_TOTAL, RetrievalResponse
from kg_tools.settings import Settings
from kg_tools.telemetry import mcp_call, setup_tracing
from kg_tools.tool_spec import MAX_CATALOG_LENGTH, MAX_NAME_LENGTH
from kg_tools.tool_store import ToolDetail

SERVER_NAME = "kg-tools"
INSTRUCTIONS = (
    "A searchable catalog of tools. Call search_tools with what the user wants done; it returns the tools "
    "needed, including the tools they depend on (e.g. a login or a lookup that supplies a parameter). "
    "Call get_tool for one tool's full definition."
)

SEARCH_DESCRIPTION = """Find the tools needed for a task, dependencies included.

Give `query` as a plain-language description of what the user wants done (e.g. "send my current location to
john@example.com"). Returns up to K tools in the order to consider them: each seed tool found by semantic
search is followed by the tools it depends on (role "dependency"), e.g. a tool that produces a parameter value
or must run first. Each tool has `name`, `kind` (core utility or regular), `role` (seed | dependency), `score`
(search similarity, seeds only), `via` (for a dependency: the tool it was reached from, the relationship type,
the parameter it serves and the reason), `spec` (the original definition) and `function` (an OpenAI
function-calling schema with the input parameters). Use `catalog` to search one catalog only."""

GET_DESCRIPTION = """Get one tool by its exact name: its original definition (`spec`), `kind`, `catalog`, an
OpenAI function-calling schema (`function`), what its catalog says besides (`title`, MCP `annotations` such as
readOnlyHint/destructiveHint, `output_schema`, OpenAPI `http` method/path/tags/links, `strict`; null when
absent) and its direct dependencies (each with name, relationship type, the parameter it serves and the
reason). Use names returned by search_tools; a name several catalogs hold needs `catalog` (the error lists
them)."""


class DirectDependency(BaseModel):
    """One outgoing dependency edge of a tool."""

    name: str
    kind: Literal["core", "regular"]
    type: str = Field(description="TOOL_/PARAMETER_ DIRECTLY/INDIRECTLY_DEPENDS_ON.")
    parameter_name: str | None = Field(description="The parameter it supplies (parameter dependencies).")
    reason: str | None


class ToolWithDependencies(ToolDetail):
    """get_tool: the tool as GET /v1/tools/{name} shows it, and its direct dependencies."""

    dependencies: list[DirectDependency]


def typed(data: dict[str, Any]) -> CallToolResult:
    """A tool result whose structured content is `data` as is (the SDK checks it against the tool's
    declared output model: `Annotated[CallToolResult, Model]`) and whose text is the same JSON."""
    return CallToolResult(content=[TextContent(type="text", text=result_text(data))], structured_content=data)


def result_text(data: dict[str, Any]) -> str:
    """A typed result's text block: its JSON, indented (what a model reads; max_tokens counts it)."""
    return pydantic_core.to_json(data, fallback=str, indent=2).decode()


class McpBackend:
    """The graph gateway, embedder and pipeline one MCP server uses (created once, at start-up)."""

    def __init__(self, settings: Settings, graph=None, embedder=None):
        services = wiring.build_services(settings, graph=graph, embedder=embedder)
        self.settings = settings
        self.graph, self.embedder, self.pipeline, self.store = (
            services.graph,
            services.embedder,
            services.pipeline,
            services.store,
        )

    def warm_up_in_background(self) -> threading.Thread:
        """Pipeline.warm_up on a daemon thread: the client's start is not held up, and requests
        that come before it ends are answered as without it (the seed cache is shared safely)."""
        thread = threading.Thread(target=self.pipeline.warm_up, name="kg-tools-warm-up", daemon=True)
        thread.start()
        return thread

    def search(self, **fields) -> dict[str, Any]:
        try:
            request = RetrievalRequest(**{k: v for k, v in fields.items() if v is not None})
        except ValidationError as exc:
            raise invalid_arguments(exc) from exc
        return self.pipeline.retrieve(request).model_dump(mode="json", by_alias=True)

    def get(self, name: str, catalog: str | None = None) -> dict[str, Any]:
        tool = self.store.get_tool(name, catalog)
        deps = self.store.dependencies(name, 1, catalog=tool.catalog).dependencies
        return {
            **tool.model_dump(),
            "dependencies": [
                {
                    "name": d.name,
                    "kind": d.kind,
                    "type": d.via.type,
                    "parameter_name": d.via.parameter_name,
                    "reason": d.via.reason,
                }
                for d in deps
            ],
        }


def build_server(service: McpBackend):
    """The MCPServer with its two tools bound to `service`."""
    server = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING", cache_hints=tools_list_cache())

    @server.tool(name="search_tools", description=SEARCH_DESCRIPTION)
    def search_tools(
        query: Annotated[
            str, Field(min_length=1, max_length=MAX_QUERY_LENGTH, description="What the user wants done.")
        ],
        k: Annotated[int, Field(ge=1, le=MAX_K, description="Seed tools found by search (default 3).")] = 3,
        K: Annotated[
            int, Field(ge=1, le=MAX_TOTAL, description="Tools returned in total, dependencies included (default 10).")
        ] = 10,
        catalog: Annotated[str | None, Field(description="Only tools of this catalog (default: all).")] = None,
    ) -> Annotated[CallToolResult, RetrievalResponse]:
        with mcp_call("mcp", "search_tools"), mcp_errors():
            return typed(service.search(query=query, k=k, K=K, catalog=catalog))

    @server.tool(name="get_tool", description=GET_DESCRIPTION)
    def get_tool(
        name: Annotated[str, Field(min_length=1, max_length=MAX_NAME_LENGTH, description="Exact tool name.")],
        catalog: Annotated[
            str | None,
            Field(max_length=MAX_CATALOG_LENGTH, description="The tool's catalog (needed when several hold the name)."),
        ] = None,
    ) -> Annotated[CallToolResult, ToolWithDependencies]:
        with mcp_call("mcp", "get_tool"), mcp_errors():
            return typed(service.get(name, catalog))

    return server


def tools_list_cache():
    """`ttlMs`/`cacheScope` of `tools/list` (2026-07-28): both MCP faces list the same fixed tools, in the
    order they are declared, to every caller, so a client may keep the list an hour and share it."""

    return {"tools/list": CacheHint(ttl_ms=3_600_000, scope="public")}


def run(settings: Settings, transport: str = "stdio", host: str | None = None, port: int | None = None) -> None:
    """Serve until stopped: stdio (a client starts this process) or streamable HTTP at /mcp."""

    setup_tracing("kg-tools-mcp")
    service = McpBackend(settings)
    service.warm_up_in_background()
    server = build_server(service)
    if transport == "stdio":
        server.run("stdio")
    else:
        anyio.run(
            serve_http,
            server,
            api_key_check(settings.api_key),
            settings,
            host or settings.api_host,
            port or settings.mcp_port,
            True,  # GET /metrics (docs/observability.md)
        )


def api_key_check(api_key: str | None):
    """Who may use `kg-tools mcp` over HTTP: with KG_TOOLS_API_KEY set, `Authorization: Bearer <key>`
    (as the REST API); each client address is its own principal for the session cap."""

    def authenticate(headers, address: str) -> str | None:
        if api_key:
            auth = headers.get("authorization", "")
            token = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
            if not hmac.compare_digest(token.encode(), api_key.encode()):
                return None
        return f"client {address}"

    return authenticate
