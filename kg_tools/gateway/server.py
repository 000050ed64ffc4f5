"""The gateway's MCP server: search_tools, get_tool, call_tool over the synced upstreams.

Search and get run on the same `Pipeline`/`ToolStore` as `kg-tools mcp` (kg_tools.mcp_server.Service);
call_tool checks the policy, validates the arguments against the tool's input schema (jsonschema) and
forwards them to the owning upstream's live session, returning its CallToolResult unchanged. Failures
of the gateway itself (unknown tool, denied, invalid arguments, upstream down or slow) are MCP
errors (JSON-RPC) whose message names the server or the rule; an upstream's own `isError` result is
passed through as it is.

Every successful call is also shown to a `CallObserver` (kg_tools/deps/observed.py): an argument that
took its value from an earlier result of the same session is an observed flow, counted in the graph by
a background task (never in the call's way; failures are logged) and promoted to a dependency edge
after KG_TOOLS_OBSERVED_PROMOTE_AFTER distinct sessions.
"""

from __future__ import annotations

import json
import logging
import re
import weakref
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from kg_tools.deps.observed import CallObserver, Flow, is_observed_reason, new_session_id
from kg_tools.gateway.config import GatewayConfig, Profile
from kg_tools.gateway.policy import OPEN_PROFILE, decide
from kg_tools.gateway.results import GatewaySearch, GatewayTool
from kg_tools.gateway.sync import SyncResult, forget_servers, gateway_entry, sync_server
from kg_tools.gateway.upstream import Upstream, UpstreamCallError
from kg_tools.retrieval.request import MAX_K, MAX_TOTAL

logger = logging.getLogger("kg_tools.gateway")

SERVER_NAME = "kg-tools-gateway"
INSTRUCTIONS = (
    "One endpoint for the tools of several MCP servers. Call search_tools with what the user wants done; "
    "it returns the tools to use (name, description, input schema, why each was included). Then call "
    "call_tool with a returned name and its arguments. get_tool gives one tool's full definition."
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

CHARS_PER_TOKEN = 4  # the cap of max_tokens is measured as JSON characters / 4
OBSERVED_QUEUE = 1000  # calls with flows waiting to be recorded; beyond it they are dropped (logged)


@dataclass
class Route:
    server: str
    tool: str
    input_schema: dict
    annotations: dict | None
    deprecated: bool = False
    validator: Any = None


# A tool's score draws on its server's (the server-score stage; real-catalog dev with servers: mAP@10
# 0.468 -> 0.496, docs/retrieval.md). The gateway always has its upstreams as (:Server) nodes.
SEARCH_STAGES = ["server-score"]

_DEPRECATED = re.compile(r"\bDEPRECATED\b")


def is_deprecated(entry: dict) -> bool:
    """The upstream marks the tool deprecated: its title says so, or its description in capitals
    (e.g. "DEPRECATED: Use read_text_file instead"). search_tools does not offer such tools; they
    can still be called."""
    return "deprecated" in (entry.get("title") or "").lower() or bool(
        _DEPRECATED.search(entry.get("description") or "")
    )


class GatewayError(Exception):
    """A gateway failure that becomes an MCP error with this code."""

    def __init__(self, message: str, code: int, data: dict | None = None):
        self.code, self.data = code, data
        super().__init__(message)

    def mcp(self):
        from mcp.shared.exceptions import MCPError

        return MCPError(self.code, str(self), self.data)


def _codes():
    from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, REQUEST_TIMEOUT

    return INVALID_PARAMS, INTERNAL_ERROR, REQUEST_TIMEOUT


class Gateway:
    """Upstreams, the routing table `server__tool -> (server, tool)`, policy, and the shared Service."""

    def __init__(self, config: GatewayConfig, service, *, resync: float | None = None, profile: str | None = None):
        self.config = config
        self.options = config.options
        self.service = service
        self.resync = resync
        self.routes: dict[str, Route] = {}
        self.syncs: list[SyncResult] = []
        self._sync_lock = anyio.Lock()
        self.upstreams = {
            key: Upstream(key, c, start_timeout=self.options.start_timeout, on_tools=self._synced)
            for key, c in config.enabled().items()
        }
        self.stdio_profile = profile or self.options.default_profile
        settings = getattr(service, "settings", None)
        self.observer = CallObserver() if settings is None or settings.observe_calls else None
        self.promote_after = settings.observed_promote_after if settings is not None else 3
        self._session_ids: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._observed_send, self._observed_receive = anyio.create_memory_object_stream[tuple[list[Flow], str]](
            OBSERVED_QUEUE
        )

    # -- sync -------------------------------------------------------------------------------
    async def _synced(self, upstream: Upstream) -> None:
        entries = [gateway_entry(upstream.key, t) for t in upstream.tools]
        si = upstream.server_info
        info = {
            "title": getattr(si, "title", None) or getattr(si, "name", None),
            "version": getattr(si, "version", None),
            "instructions": upstream.instructions,
        }
        async with self._sync_lock:
            result = await anyio.to_thread.run_sync(
                lambda: sync_server(self.service.graph, self.service.embedder, upstream.key, entries, info=info)
            )
        routes = {
            e["name"]: Route(
                upstream.key, e["upstream"]["tool"], e.get("input_schema") or {}, e.get("annotations"), is_deprecated(e)
            )
            for e in entries
        }
        for name in [n for n, r in self.routes.items() if r.server == upstream.key and n not in routes]:
            del self.routes[name]
        self.routes.update(routes)
        self.syncs.append(result)
        logger.info("synced %s: %s", upstream.key, json.dumps(result.as_dict()))

    async def start(self, task_group) -> None:
        """Start every upstream; return once each has synced or failed (a hanging upstream fails after
        start_timeout: every request of its start is bounded by it)."""
        await anyio.to_thread.run_sync(self.service.embedder.embed, ["warm up"])  # model loaded before syncs
        await anyio.to_thread.run_sync(forget_servers, self.service.graph, set(self.config.servers))
        if self.observer is not None:
            task_group.start_soon(self._record_observed)
        for upstream in self.upstreams.values():
            task_group.start_soon(upstream.run, self.resync)
        for upstream in self.upstreams.values():
            await upstream.started.wait()
        for upstream in self.upstreams.values():
            if upstream.state != "ready":
                logger.warning("upstream %s: %s; serving the others", upstream.key, upstream.error or "still starting")

    # -- policy -----------------------------------------------------------------------------
    def profile(self, headers) -> tuple[str, Profile]:
        """The caller's profile: over HTTP by its bearer token (none: refused), on stdio the chosen one."""
        invalid, _, _ = _codes()
        if headers is not None:  # HTTP
            auth = next((v for k, v in headers.items() if k.lower() == "authorization"), "")
            token = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
            for name, profile in self.options.profiles.items():
                expected = profile.bearer_token(name)
                if token and expected and _same(token, expected):
                    return name, profile
            raise GatewayError(
                "no valid bearer token: send 'Authorization: Bearer <token of a profile>'; nothing was dispatched",
                invalid,
                {"rule": "bearer token"},
            )
        if self.stdio_profile:
            return self.stdio_profile, self.options.profiles[self.stdio_profile]
        return OPEN_PROFILE, Profile()

    def check(self, profile_name: str, profile: Profile, name: str) -> Route:
        invalid, _, _ = _codes()
        route = self.routes.get(name)
        if route is None:
            raise GatewayError(f"unknown tool {name!r}: not a tool of a connected server (use search_tools)", invalid)
        decision = decide(profile_name, profile, name, route.annotations)
        if not decision:
            logger.warning("denied %s for profile %s by %s", name, profile_name, decision.rule)
            raise GatewayError(
                f"denied: {name} is not allowed by {decision.rule}",
                invalid,
                {"tool": name, "server": route.server, "rule": decision.rule},
            )
        return route

    def offered(self, profile: tuple[str, Profile], name: str) -> bool:
        """What search_tools may return: visible to the profile and not deprecated upstream."""
        return self.visible(*profile, name) and not self.routes[name].deprecated

    def offered_hits(self, profile: tuple[str, Profile], tools: list[dict]) -> list[dict]:
        """The offered tools of a result, without the dependencies of a seed that is not offered (they
        follow it, and would come before the first offered seed "needed by" a tool the agent never sees:
        the deprecated read_file's directory listers before read_text_file)."""
        hits, hidden_seed = [], False
        for tool in tools:
            if tool["role"] == "seed":
                hidden_seed = not self.offered(profile, tool["name"])
            if not hidden_seed and self.offered(profile, tool["name"]):
                hits.append(tool)
        return hits

    def visible(self, profile_name: str, profile: Profile, name: str) -> bool:
        route = self.routes.get(name)
        return route is not None and bool(decide(profile_name, profile, name, route.annotations))

    # -- the three tools --------------------------------------------------------------------
    def search(
        self,
        profile: tuple[str, Profile],
        query: str,
        k: int,
        K: int,
        server: str | None,
        detail: str,
        max_tokens: int | None,
        rank_servers: bool = False,
    ) -> dict:
        if server is not None and server not in self.upstreams:
            raise GatewayError(f"unknown server {server!r}; servers: {', '.join(sorted(self.upstreams))}", _codes()[0])
        hits, extra = [], 0
        for _ in range(3):  # tools of other catalogs, denied or deprecated ones are dropped: look further
            response = self.service.search(
                query=query,
                k=min(MAX_K, k + extra),
                K=min(MAX_TOTAL, K + extra),
                catalog=server,
                stages=SEARCH_STAGES,
            )
            hits = self.offered_hits(profile, response["tools"])
            hidden_seeds = sum(1 for t in response["tools"] if t["role"] == "seed" and t not in hits)
            if hidden_seeds == 0 or k + extra >= MAX_K:
                break
            extra += hidden_seeds
        seeds = [t for t in hits if t["role"] == "seed"][:k]
        hits = [t for t in hits if t["role"] != "seed" or t in seeds]
        result = {"tools": [self._compact(t, detail) for t in hits[:K]]}
        if rank_servers:
            result["servers"] = self.rank_servers(profile, query)
        return _capped(result, max_tokens)

    def rank_servers(self, profile: tuple[str, Profile], query: str) -> list[dict]:
        """The connected servers by similarity of the query to the server's embedding (title,
        instructions, tool names), each with how many of its tools the profile may use."""
        import numpy as np

        from kg_tools.cypher import query as cypher

        usable: dict[str, int] = {}
        for name, route in self.routes.items():
            if self.offered(profile, name):
                usable[route.server] = usable.get(route.server, 0) + 1
        rows = [r for r in self.service.graph.read(cypher("gateway_servers"), names=sorted(usable)) if r["embedding"]]
        if not rows:
            return []
        q = np.asarray(self.service.embedder.embed([query])[0], dtype=float)
        m = np.asarray([r["embedding"] for r in rows], dtype=float)
        scores = m @ q / (np.linalg.norm(m, axis=1) * np.linalg.norm(q) + 1e-12)
        ranked = sorted(zip(scores.tolist(), rows), key=lambda x: -x[0])
        return [
            {
                "name": r["name"],
                "title": r["title"],
                "version": r["version"],
                "score": round(s, 4),
                "tools": usable[r["name"]],
            }
            for s, r in ranked
        ]

    def _compact(self, hit: dict, detail: str) -> dict:
        route = self.routes[hit["name"]]
        spec = hit.get("spec") or {}
        if hit["role"] == "seed":
            why = (
                f"matches the query (score {hit['score']:.3f})" if hit.get("score") is not None else "matches the query"
            )
        else:
            via = hit["via"][0] if hit.get("via") else {}
            why = (
                f"needed by {via.get('from')}"
                + (f" for parameter {via['parameter_name']!r}" if via.get("parameter_name") else "")
                + (
                    " (observed in real calls)"
                    if is_observed_reason(via.get("reason"))
                    else f" (inferred, confidence {via['confidence']:.2f})"
                    if via.get("inferred") and via.get("confidence") is not None
                    else ""
                )
                + (f": {via['reason']}" if via.get("reason") else "")
            )
        out = {
            "name": hit["name"],
            "server": route.server,
            "description": spec.get("description", ""),
            "input_schema": route.input_schema,
            "why": why,
        }
        if detail == "full":
            out["spec"] = spec
        return out

    def get(self, profile: tuple[str, Profile], name: str) -> dict:
        route = self.check(*profile, name)
        tool = self.service.get(name)
        spec = tool["spec"]
        deps = [d for d in tool["dependencies"] if self.visible(*profile, d["name"])]
        return {
            "name": name,
            "server": route.server,
            "upstream_name": route.tool,
            "title": spec.get("title"),
            "description": spec.get("description", ""),
            "input_schema": route.input_schema,
            "output_schema": spec.get("output_schema"),
            "annotations": route.annotations,
            "dependencies": deps,
        }

    async def call(self, profile: tuple[str, Profile], name: str, arguments: dict, session: object = None):
        """Forward one call; `session` (the caller's MCP session object) scopes the observed flows."""
        invalid, internal, timeout_code = _codes()
        route = self.check(*profile, name)
        problems = _schema_problems(route, arguments)
        if problems:
            raise GatewayError(
                f"invalid arguments for {name}: " + "; ".join(problems), invalid, {"tool": name, "server": route.server}
            )
        upstream = self.upstreams[route.server]
        try:
            result = await upstream.call(route.tool, arguments, self.options.call_timeout)
        except UpstreamCallError as exc:
            code = timeout_code if exc.timeout else internal
            raise GatewayError(str(exc), code, {"tool": name, "server": route.server}) from exc
        self._observe(session, name, arguments, result)
        return result

    # -- observed dependencies (kg_tools/deps/observed.py) -----------------------------------
    def _session_id(self, session: object) -> str:
        """An id per MCP session: over HTTP the `mcp-session-id` the server gave it, else a random id
        per connection object (stdio: the one connection)."""
        if isinstance(session, str):
            return session
        try:
            sid = self._session_ids.get(session)
            if sid is None:
                sid = self._session_ids[session] = new_session_id()
            return sid
        except TypeError:  # not weak-referenceable: one id for the process
            return self._session_ids.setdefault(self, new_session_id())

    def _observe(self, session: object, name: str, arguments: dict, result) -> None:
        """Match the call against its session's earlier results and queue the flows for recording.
        In memory and bounded; never raises into the call."""
        if self.observer is None or getattr(result, "is_error", False):
            return
        try:
            sid = self._session_id(session)
            flows = self.observer.observe(sid, name, arguments, result)
            if flows:
                self._observed_send.send_nowait((flows, sid))
        except anyio.WouldBlock:
            logger.warning("observed flows of %s dropped: the recorder is %d calls behind", name, OBSERVED_QUEUE)
        except Exception as exc:  # noqa: BLE001 - observing is an extra; the call is done
            logger.warning("observing %s failed: %s: %s", name, type(exc).__name__, exc)

    async def _record_observed(self) -> None:
        """The background task that counts observed flows in the graph and promotes them."""
        from kg_tools.deps.observed import record

        async for flows, sid in self._observed_receive:
            try:
                await anyio.to_thread.run_sync(record, self.service.graph, flows, sid, self.promote_after)
            except Exception as exc:  # noqa: BLE001 - a failed write loses one sighting, nothing else
                logger.warning("recording observed flows failed: %s: %s", type(exc).__name__, exc)

    def status(self) -> list[dict]:
        return [
            {
                "server": u.key,
                "state": u.state,
                "error": u.error,
                "tools": sum(1 for r in self.routes.values() if r.server == u.key),
            }
            for u in self.upstreams.values()
        ]


def _session_of(ctx: Context) -> object:
    """What tells the caller's MCP session apart: the streamable HTTP session id, else the connection
    (ctx.session is a new object per request; its connection lives as long as the session)."""
    sid = next((v for k, v in (ctx.headers or {}).items() if k.lower() == "mcp-session-id"), None)
    if sid:
        return f"mcp-session-id:{sid}"
    return getattr(ctx.session, "_connection", None) or ctx.session


def _same(a: str, b: str) -> bool:
    import hmac

    return hmac.compare_digest(a.encode(), b.encode())


def _schema_problems(route: Route, arguments: dict) -> list[str]:
    from jsonschema import validators
    from jsonschema.exceptions import SchemaError

    if route.validator is None:
        try:
            cls = validators.validator_for(route.input_schema or {})
            cls.check_schema(route.input_schema or {})
            route.validator = cls(route.input_schema or {})
        except SchemaError as exc:  # the upstream's own schema is broken: do not block its calls on it
            logger.warning("tool %s::%s: input schema not checkable: %s", route.server, route.tool, exc.message)
            route.validator = False
    if route.validator is False:
        return []
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(arguments)'}: {e.message}"
        for e in sorted(route.validator.iter_errors(arguments), key=lambda e: list(map(str, e.absolute_path)))
    ][:10]


def _capped(result: dict, max_tokens: int | None) -> dict:
    """Drop tools from the end until the JSON fits max_tokens (~4 characters a token)."""
    if max_tokens is None:
        return result
    dropped = 0
    while result["tools"] and len(json.dumps(result)) > max_tokens * CHARS_PER_TOKEN:
        result["tools"].pop()
        dropped += 1
    if dropped:
        result["truncated"] = f"{dropped} tool(s) left out to stay within max_tokens={max_tokens}"
    return result


def build_server(gateway: Gateway):
    from kg_tools.errors import KgToolsError
    from kg_tools.mcp_server import typed

    server = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")

    def who(ctx: Context):
        return gateway.profile(ctx.headers)

    async def blocking(fn, *args):
        try:
            return await anyio.to_thread.run_sync(fn, *args)
        except GatewayError as exc:
            raise exc.mcp() from exc
        except KgToolsError as exc:
            raise GatewayError(str(exc), _codes()[1]).mcp() from exc

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
        try:
            profile = who(ctx)
        except GatewayError as exc:
            raise exc.mcp() from exc
        return typed(await blocking(gateway.search, profile, query, k, K, server, detail, max_tokens, rank_servers))

    @server.tool(name="get_tool", description=GET_DESCRIPTION)
    async def get_tool(
        name: Annotated[str, Field(min_length=1, max_length=200, description="Exact tool name (server__tool).")],
        ctx: Context,
    ) -> Annotated[CallToolResult, GatewayTool]:
        try:
            profile = who(ctx)
        except GatewayError as exc:
            raise exc.mcp() from exc
        return typed(await blocking(gateway.get, profile, name))

    @server.tool(name="call_tool", description=CALL_DESCRIPTION)
    async def call_tool(
        name: Annotated[str, Field(min_length=1, max_length=200, description="Tool name (server__tool).")],
        ctx: Context,
        arguments: Annotated[dict[str, Any] | None, Field(description="The tool's arguments.")] = None,
    ) -> CallToolResult:
        try:
            return await gateway.call(who(ctx), name, arguments or {}, session=_session_of(ctx))
        except GatewayError as exc:
            raise exc.mcp() from exc

    return server


async def serve(gateway: Gateway, server, transport: str, host: str, port: int) -> None:
    async with anyio.create_task_group() as tg:
        await gateway.start(tg)
        for s in gateway.status():
            logger.warning(
                "upstream %s: %s (%d tools)%s",
                s["server"],
                s["state"],
                s["tools"],
                f" {s['error']}" if s["error"] else "",
            )
        if transport == "stdio":
            await server.run_stdio_async()
        else:
            await server.run_streamable_http_async(host=host, port=port)
        tg.cancel_scope.cancel()


def run(
    settings,
    config: GatewayConfig,
    *,
    transport: str = "stdio",
    host: str | None = None,
    port: int | None = None,
    resync: float | None = None,
    profile: str | None = None,
) -> None:
    from kg_tools.errors import ConfigurationError
    from kg_tools.mcp_server import Service

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
    logging.basicConfig(level=logging.WARNING, format="kg-tools gateway: %(message)s")
    logging.getLogger("mcp").setLevel(logging.CRITICAL)  # upstream faults are reported once, by the gateway
    logger.setLevel(logging.INFO)
    service = Service(settings)
    gateway = Gateway(config, service, resync=resync, profile=profile)
    server = build_server(gateway)
    anyio.run(serve, gateway, server, transport, host or "127.0.0.1", port or settings.mcp_port)


__all__ = ["Gateway", "build_server", "run", "serve"]
