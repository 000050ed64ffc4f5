"""The gateway's logic, without MCP types: routing `server__tool` to its upstream, policy checks, the search
with its widening loop, server ranking, the token cap, argument schema checks and observed calls.

Search and get run on the same `Pipeline`/`ToolStore` as `kg-tools mcp` (kg_tools.mcp_server.McpBackend).
call checks the policy, validates the arguments against the tool's input schema (jsonschema) and forwards
them to the owning upstream's live session, returning its result unchanged. Every refusal or failure is a
`KgToolsError` (kg_tools/errors.py) naming the server or the rule; server.py maps it to the MCP answer.

Every successful call is also shown to a `CallObserver` (kg_tools/deps/observed.py): an argument that
took its value from an earlier result of the same session is an observed flow, counted in the graph by
a background task (never in the call's way; failures are logged) and promoted to a dependency edge
after KG_TOOLS_OBSERVED_PROMOTE_AFTER distinct sessions.
"""

from __future__ import annotations

import hmac
import json
import logging
import re
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import anyio
import numpy as np
from jsonschema.exceptions import SchemaError

from kg_tools.cypher import query as cypher
from kg_tools.deps.observed import CallObserver, Flow, is_observed_reason, new_session_id, record
from kg_tools.errors import (
    InvalidArgumentsError,
    PolicyDeniedError,
    UnauthorizedError,
    UnknownServerError,
    UnknownToolError,
)
from kg_tools.gateway import pinning
from kg_tools.gateway.config import GatewayConfig, Profile
from kg_tools.gateway.policy import OPEN_PROFILE, decide
from kg_tools.gateway.results import GatewayHit, GatewaySearch, GatewayTool, ServerRank
from kg_tools.gateway.sync import SyncResult, claim_servers, forget_servers, gateway_entries, sync_server
from kg_tools.gateway.upstream import Upstream
from kg_tools.gateway.validation import BudgetExceeded, build_validator, check_off_loop, problems
from kg_tools.mcp_server import result_text
from kg_tools.retrieval.request import MAX_K, MAX_TOTAL

logger = logging.getLogger("kg_tools.gateway")

CHARS_PER_TOKEN = 4  # the cap of max_tokens is measured as JSON characters / 4
OBSERVED_QUEUE = 1000  # calls with flows waiting to be recorded; beyond it they are dropped (logged)
SEARCH_ROUNDS = 3  # searches per search_tools call, each wider by the seeds that were not offered

# A tool's score draws on its server's (the server-score stage; real-catalog dev with servers: mAP@10
# 0.468 -> 0.496, docs/retrieval.md). The gateway always has its upstreams as (:Server) nodes.
# The :Core utility a request implies ("save it to notes.txt" -> write_file, "remember that ..." -> the memory
# server's create_entities) follows the tool it serves (the utilities stage; the sync marks :Core).
SEARCH_STAGES = ["server-score", "utilities"]

_DEPRECATED = re.compile(r"\bDEPRECATED\b")

CallerProfile = tuple[str, Profile]  # (profile name, profile)


@dataclass
class Route:
    server: str
    tool: str
    input_schema: dict
    annotations: dict | None
    deprecated: bool = False
    validator: Any = None
    trusted: bool = False  # the config trusts the server's annotations (policy rule 3)
    hold: str | None = None  # why the definition is held (kg_tools/gateway/pinning.py), None when pinned
    digest: str = ""  # the definition's hash


def is_deprecated(entry: dict) -> bool:
    """The upstream marks the tool deprecated: its title says so, or its description in capitals
    (e.g. "DEPRECATED: Use read_text_file instead"). search_tools does not offer such tools; they
    can still be called."""
    return "deprecated" in (entry.get("title") or "").lower() or bool(
        _DEPRECATED.search(entry.get("description") or "")
    )


# -- pure steps (no graph, no upstream) -------------------------------------------------------
def principal(headers: Mapping[str, str], profiles: Mapping[str, Profile]) -> str | None:
    """The HTTP principal: the profile whose token the request holds ("profile NAME"), else None."""
    try:
        return f"profile {bearer_profile(headers, profiles)[0]}"
    except UnauthorizedError:
        return None


def bearer_profile(headers: Mapping[str, str], profiles: Mapping[str, Profile]) -> CallerProfile:
    """The profile whose token the `Authorization: Bearer` header holds; UnauthorizedError without one."""
    auth = next((v for k, v in headers.items() if k.lower() == "authorization"), "")
    token = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
    for name, profile in profiles.items():
        expected = profile.bearer_token(name)
        if token and expected and hmac.compare_digest(token.encode(), expected.encode()):
            return name, profile
    raise UnauthorizedError(
        "no valid bearer token: send 'Authorization: Bearer <token of a profile>'; nothing was dispatched",
        rule="bearer token",
    )


def offered_hits(tools: list[dict], offered: Callable[[str], bool]) -> list[dict]:
    """The offered tools of a result, without the dependencies of a seed that is not offered (they
    follow it, and would come before the first offered seed "needed by" a tool the agent never sees:
    the deprecated read_file's directory listers before read_text_file)."""
    hits, hidden_seed = [], False
    for tool in tools:
        if tool["role"] == "seed":
            hidden_seed = not offered(tool["name"])
        if not hidden_seed and offered(tool["name"]):
            hits.append(tool)
    return hits


def widening_search(
    retrieve: Callable[[int, int], list[dict]], offered: Callable[[str], bool], k: int, K: int
) -> list[dict]:
    """`retrieve(k, K)` until k offered seeds came back: denied or deprecated seeds are dropped (the
    search itself is restricted to the gateway's catalogs), so each round asks for as many more as were dropped (up to SEARCH_ROUNDS, MAX_K).
    At most k seeds and K tools, in the retrieval's order."""
    hits, extra = [], 0
    for _ in range(SEARCH_ROUNDS):
        tools = retrieve(min(MAX_K, k + extra), min(MAX_TOTAL, K + extra))
        hits = offered_hits(tools, offered)
        hidden_seeds = sum(1 for t in tools if t["role"] == "seed" and t not in hits)
        if hidden_seeds == 0 or k + extra >= MAX_K:
            break
        extra += hidden_seeds
    return first_seeds(hits, k)[:K]


def first_seeds(hits: list[dict], k: int) -> list[dict]:
    """The first k seeds and only the dependencies of what is kept: a dependency stays when a tool it is
    needed by (`via[].from`) stays, else (no `via`) when the seed it follows stays. Its `via` keeps only
    the kept tools, so `why` never names a tool the answer does not hold."""
    kept: list[dict] = []
    names: set[str] = set()
    seeds, seed_kept = 0, False
    for hit in hits:
        if hit["role"] == "seed":
            seed_kept = seeds < k
            seeds += 1
            if seed_kept:
                kept.append(hit)
                names.add(hit["name"])
            continue
        via = [v for v in hit.get("via") or [] if v.get("from")]
        needed_by = [v for v in via if v["from"] in names]
        if needed_by or (not via and seed_kept):
            kept.append(hit | {"via": needed_by} if via else hit)
            names.add(hit["name"])
    return kept


def why(hit: dict) -> str:
    """Why a search result is there: a match (with its score), or the tool it is needed by."""
    if hit["role"] == "seed":
        return f"matches the query (score {hit['score']:.3f})" if hit.get("score") is not None else "matches the query"
    via = hit["via"][0] if hit.get("via") else {}
    return (
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


def compact(hit: dict, route: Route, detail: str) -> GatewayHit:
    """A retrieval hit as search_tools shows it; `detail: "full"` adds the stored definition."""
    spec = hit.get("spec") or {}
    out = GatewayHit(
        name=hit["name"],
        server=route.server,
        description=spec.get("description", ""),
        input_schema=route.input_schema,
        why=why(hit),
    )
    if detail == "full":
        out.spec = spec
    return out


def rank(query_embedding: list[float], rows: list[dict], usable: Mapping[str, int]) -> list[ServerRank]:
    """Servers (rows with name, title, version, embedding) by cosine similarity to the query, best first,
    each with `usable[name]` tools."""

    rows = [r for r in rows if r["embedding"]]
    if not rows:
        return []
    q = np.asarray(query_embedding, dtype=float)
    m = np.asarray([r["embedding"] for r in rows], dtype=float)
    scores = m @ q / (np.linalg.norm(m, axis=1) * np.linalg.norm(q) + 1e-12)
    ranked = sorted(zip(scores.tolist(), rows), key=lambda x: -x[0])
    return [
        ServerRank(name=r["name"], title=r["title"], version=r["version"], score=round(s, 4), tools=usable[r["name"]])
        for s, r in ranked
    ]


def payload(result: GatewaySearch | GatewayTool) -> dict[str, Any]:
    """A result as the JSON the tools answer: optional fields only when they were set."""
    return result.model_dump(mode="json", exclude_unset=True)


def sent_size(result: GatewaySearch) -> int:
    """The characters of the answer's text as it is sent (kg_tools.mcp_server.result_text: indented JSON)."""

    return len(result_text(payload(result)))


def cap(result: GatewaySearch, max_tokens: int | None) -> GatewaySearch:
    """Drop tools from the end until the text sent (the `truncated` note included) fits max_tokens
    (~4 characters a token)."""
    if max_tokens is None or sent_size(result) <= max_tokens * CHARS_PER_TOKEN:
        return result
    tools, trial = list(result.tools), result
    while tools:
        tools.pop()
        dropped = len(result.tools) - len(tools)
        trial = result.model_copy(
            update={"tools": tools, "truncated": f"{dropped} tool(s) left out to stay within max_tokens={max_tokens}"}
        )
        if sent_size(trial) <= max_tokens * CHARS_PER_TOKEN:
            return trial
    return trial


def schema_problems(route: Route, arguments: dict) -> list[str]:
    """What is wrong with `arguments` for the route's input schema (at most MAX_PROBLEMS, by path); none
    when the upstream's own schema is broken (its calls are not blocked on it)."""
    validator = route_validator(route)
    return problems(validator, arguments) if validator else []


def route_validator(route: Route):
    """The route's bounded validator (kg_tools/gateway/validation.py), built once; False when the
    upstream's own schema is broken."""

    if route.validator is None:
        try:
            route.validator = build_validator(route.input_schema or {})
        except SchemaError as exc:
            logger.warning("tool %s::%s: input schema not checkable: %s", route.server, route.tool, exc.message)
            route.validator = False
    return route.validator


# -- the gateway ------------------------------------------------------------------------------
class Gateway:
    """Upstreams, the routing table `server__tool -> (server, tool)`, policy, and the shared McpBackend."""

    def __init__(self, config: GatewayConfig, service, *, resync: float | None = None, profile: str | None = None):
        self.config = config
        self.options = config.options
        self.service = service
        self.resync = resync
        self.routes: dict[str, Route] = {}
        self.serving = False  # set once the MCP server runs (server.serve)
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
        entries = gateway_entries(upstream.key, upstream.tools)
        accept = self.config.servers[upstream.key].accept_changes
        reviewed = await anyio.to_thread.run_sync(
            lambda: pinning.review(self.service.graph, upstream.key, entries, accept_changes=accept)
        )
        entries = reviewed.entries
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
                upstream.key,
                e["upstream"]["tool"],
                e.get("input_schema") or {},
                e.get("annotations"),
                is_deprecated(e),
                trusted=self.config.servers[upstream.key].trusted,
                hold=reviewed.holds.get(e["name"]),
                digest=reviewed.hashes.get(e["name"], ""),
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
        name, graph = self.config.name, self.service.graph
        await anyio.to_thread.run_sync(claim_servers, graph, name, set(self.upstreams))
        await anyio.to_thread.run_sync(forget_servers, graph, name, set(self.config.servers))
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
    def profile(self, headers: Mapping[str, str] | None) -> CallerProfile:
        """The caller's profile: over HTTP by its bearer token (none: refused), on stdio the chosen one."""
        if headers is not None:  # HTTP
            return bearer_profile(headers, self.options.profiles)
        if self.stdio_profile:
            return self.stdio_profile, self.options.profiles[self.stdio_profile]
        return OPEN_PROFILE, Profile()

    def authenticate(self, headers: Mapping[str, str], address: str) -> str | None:
        """The HTTP principal (kg_tools/http_guard.py): the profile whose token the request holds, else None."""
        return principal(headers, self.options.profiles)

    def check(self, profile_name: str, profile: Profile, name: str) -> Route:
        """The route of a tool the profile may use; UnknownToolError, PolicyDeniedError otherwise."""
        route = self.routes.get(name)
        if route is None:
            raise UnknownToolError(
                f"unknown tool {name!r}: not a tool of a connected server{self._did_you_mean(profile_name, profile, name)}"
            )
        if self.held(route):
            raise PolicyDeniedError(
                f"held: {name} is not offered until approved ({route.hold}); an operator approves it with "
                "`kg-tools gateway approve`",
                tool=name,
                server=route.server,
                rule="pinned definitions",
            )
        decision = decide(profile_name, profile, name, route.annotations, route.trusted)
        if not decision:
            logger.warning("denied %s for profile %s by %s", name, profile_name, decision.rule)
            raise PolicyDeniedError(
                f"denied: {name} is not allowed by {decision.rule}", tool=name, server=route.server, rule=decision.rule
            )
        return route

    def _did_you_mean(self, profile_name: str, profile: Profile, name: str) -> str:
        """A hint for an upstream's bare tool name (`git_log` -> `git__git_log`) among the tools the
        profile may see, else search_tools."""
        full = sorted(n for n, r in self.routes.items() if r.tool == name and self.visible(profile_name, profile, n))
        if full:
            return f"; did you mean {' or '.join(f'`{n}`' for n in full[:3])}? (names are server__tool)"
        return " (use search_tools)"

    def offered(self, profile: CallerProfile, name: str) -> bool:
        """What search_tools may return: visible to the profile, not deprecated upstream and of a server
        that is not down."""
        return self.visible(*profile, name) and not self.routes[name].deprecated and self.up(self.routes[name].server)

    def up(self, server: str) -> bool:
        upstream = self.upstreams.get(server)
        return upstream is not None and upstream.state != "down"

    def visible(self, profile_name: str, profile: Profile, name: str) -> bool:
        route = self.routes.get(name)
        return (
            route is not None
            and not self.held(route)
            and bool(decide(profile_name, profile, name, route.annotations, route.trusted))
        )

    def held(self, route: Route) -> bool:
        """The route's definition is held; an approval since the sync (read from the graph) lifts it."""
        if route.hold is None:
            return False
        if pinning.still_held(self.service.graph, route.server, route.tool, route.digest):
            return True
        route.hold = None
        return False

    # -- the three tools --------------------------------------------------------------------
    def search(
        self,
        profile: CallerProfile,
        query: str,
        k: int,
        K: int,
        server: str | None,
        detail: str,
        max_tokens: int | None,
        rank_servers: bool = False,
    ) -> GatewaySearch:
        if server is not None and server not in self.upstreams:
            raise UnknownServerError(
                f"unknown server {server!r}; servers: {', '.join(sorted(self.upstreams))}", server=server
            )

        def retrieve(k: int, K: int) -> list[dict]:
            # exactly this gateway's catalogs (or the one asked for), filtered inside the search query
            scope = [server] if server is not None else sorted(self.upstreams)
            found = self.service.search(query=query, k=k, K=K, catalogs=scope, stages=SEARCH_STAGES)
            return found["tools"]

        hits = widening_search(retrieve, lambda name: self.offered(profile, name), k, K)
        result = GatewaySearch(tools=[compact(t, self.routes[t["name"]], detail) for t in hits])
        if rank_servers:
            result.servers = self.rank_servers(profile, query)
        return cap(result, max_tokens)

    def rank_servers(self, profile: CallerProfile, query: str) -> list[ServerRank]:
        """The connected servers by similarity of the query to the server's embedding (title,
        instructions, tool names), each with how many of its tools the profile may use."""

        usable: dict[str, int] = {key: 0 for key in self.upstreams}
        for name, route in self.routes.items():
            if route.server in usable and self.offered(profile, name):
                usable[route.server] += 1
        rows = [r for r in self.service.graph.read(cypher("gateway_servers"), names=sorted(usable)) if r["embedding"]]
        ranked = rank(self.service.embedder.embed([query])[0], rows, usable) if rows else []
        # every upstream is listed, with its state: one that is down (or never synced) after the others
        ranked += [
            ServerRank(name=key, title=None, version=None, score=None, tools=0)
            for key in self.upstreams
            if key not in {r.name for r in ranked}
        ]
        for entry in ranked:
            upstream = self.upstreams[entry.name]
            entry.state, entry.available, entry.error = upstream.state, self.up(entry.name), upstream.error
        return sorted(ranked, key=lambda r: not r.available)

    def get(self, profile: CallerProfile, name: str) -> GatewayTool:
        route = self.check(*profile, name)
        tool = self.service.get(name, catalog=route.server)
        spec = tool["spec"]
        return GatewayTool(
            name=name,
            server=route.server,
            upstream_name=route.tool,
            title=spec.get("title"),
            description=spec.get("description", ""),
            input_schema=route.input_schema,
            output_schema=spec.get("output_schema"),
            annotations=route.annotations,
            dependencies=[d for d in tool["dependencies"] if self.visible(*profile, d["name"])],
            available=self.up(route.server),
        )

    async def call(self, profile: CallerProfile, name: str, arguments: dict, session: object = None):
        """Forward one call and return the upstream's result unchanged; `session` (what tells the caller's
        MCP session apart) scopes the observed flows. Raises UnknownToolError, PolicyDeniedError,
        InvalidArgumentsError or UpstreamCallError (down, failed, timed out)."""
        route = self.check(*profile, name)
        validator = route_validator(route)
        try:
            found = await check_off_loop(validator, arguments) if validator else []
        except BudgetExceeded as exc:
            raise InvalidArgumentsError(
                f"invalid arguments for {name}: they could not be checked against its input schema within "
                f"the gateway's time budget (too large or too complex); nothing was dispatched"
            ) from exc
        if found:
            raise InvalidArgumentsError(f"invalid arguments for {name}: " + "; ".join(found))
        result = await self.upstreams[route.server].call(route.tool, arguments, self.options.call_timeout)
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
            flows = [
                replace(f, provider_catalog=self._catalog(f.provider), consumer_catalog=self._catalog(f.consumer))
                for f in self.observer.observe(sid, name, arguments, result)
            ]
            if flows:
                self._observed_send.send_nowait((flows, sid))
        except anyio.WouldBlock:
            logger.warning("observed flows of %s dropped: the recorder is %d calls behind", name, OBSERVED_QUEUE)
        except Exception as exc:  # noqa: BLE001 - observing is an extra; the call is done
            logger.warning("observing %s failed: %s: %s", name, type(exc).__name__, exc)

    def _catalog(self, name: str) -> str | None:
        """The catalog of a routed tool: its server's."""
        route = self.routes.get(name)
        return route.server if route else None

    async def _record_observed(self) -> None:
        """The background task that counts observed flows in the graph and promotes them."""

        async for flows, sid in self._observed_receive:
            try:
                await anyio.to_thread.run_sync(record, self.service.graph, flows, sid, self.promote_after)
            except Exception as exc:  # noqa: BLE001 - a failed write loses one sighting, nothing else
                logger.warning("recording observed flows failed: %s: %s", type(exc).__name__, exc)

    def status(self) -> list[dict]:
        """Each upstream's health (kg_tools/gateway/health.py) and its number of tools."""
        return [
            u.health()
            | {
                "tools": sum(1 for r in self.routes.values() if r.server == u.key),
                "held": sorted(n for n, r in self.routes.items() if r.server == u.key and r.hold),
            }
            for u in self.upstreams.values()
        ]
