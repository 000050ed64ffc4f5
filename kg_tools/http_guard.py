"""The ASGI layer in front of the MCP SDK's streamable-HTTP app (`kg-tools mcp` and `kg-tools gateway` over
HTTP): who may open a session, and how many.

- `authenticate(headers)` runs on every request, `initialize` included: None -> HTTP 401 with
  `WWW-Authenticate: Bearer` before a session exists (logged, at most once a minute per client address).
- Sessions are counted per principal (what `authenticate` returned: a profile, or the client address when
  no token is configured) and in total; over a cap -> HTTP 429 (per principal) or 503 (total) naming it,
  so tokenless or one token's requests cannot lock the others out.
- A session belongs to the principal that opened it: another one gets 404, as if it did not exist.
- `GET /metrics` (the gateway's; docs/observability.md): the Prometheus page, open on a loopback bind,
  else under the same `authenticate` rule as the MCP endpoint (it is operational data).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import anyio
import uvicorn

from kg_tools.telemetry import metrics_page

logger = logging.getLogger("kg_tools.http")

SESSION_HEADER = "mcp-session-id"
LOG_EVERY = 60.0  # seconds between two refusal lines for one client address


@dataclass
class SessionGuard:
    app: Callable
    authenticate: Callable[[Mapping[str, str], str], str | None]  # (headers, client address) -> principal
    live_sessions: Callable[[], set[str]]  # the session ids the SDK still holds
    per_principal: int
    total: int
    realm: str = "kg-tools"
    metrics: bool = False  # serve GET /metrics
    metrics_open: bool = False  # without authentication (a loopback bind)
    owners: dict[str, str] = field(default_factory=dict)  # session id -> principal
    _opening: dict[str, int] = field(default_factory=dict)  # principal -> sessions being opened
    _logged: dict[str, tuple[float, int]] = field(default_factory=dict)  # address -> (last line, refused)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
        address = (scope.get("client") or ("unknown",))[0]
        if self.metrics and scope.get("path") == "/metrics" and self.metrics_open:
            await _metrics(send)
            return
        principal = self.authenticate(headers, address)
        if principal is None:
            self._log_refusal(address)
            await _answer(
                send,
                401,
                "no valid bearer token: send 'Authorization: Bearer <token>'; no session was opened",
                {"www-authenticate": f'Bearer realm="{self.realm}", error="invalid_token"'},
            )
            return
        if self.metrics and scope.get("path") == "/metrics":
            await _metrics(send)
            return
        sid = headers.get(SESSION_HEADER)
        if sid is not None:
            owner = self.owners.get(sid)
            if owner is not None and owner != principal:
                logger.warning("refused: session %s… used by another principal (%s)", sid[:8], address)
                await _answer(send, 404, "Session not found")
                return
            await self.app(scope, receive, send)
            return
        await self._open(principal, scope, receive, send)

    async def _open(self, principal: str, scope, receive, send) -> None:
        """A request without a session id: admitted under the caps; the session id the SDK answers is
        recorded as the principal's."""
        live = self.live_sessions()
        self.owners = {s: p for s, p in self.owners.items() if s in live}
        mine = sum(1 for p in self.owners.values() if p == principal) + self._opening.get(principal, 0)
        if mine >= self.per_principal:
            logger.warning("refused a new session for %s: it holds %d (the cap per client)", principal, mine)
            await _answer(send, 429, f"too many open sessions for this client ({mine}; cap {self.per_principal})")
            return
        if len(live) + sum(self._opening.values()) >= self.total:
            logger.warning("refused a new session for %s: %d sessions open (the total cap)", principal, len(live))
            await _answer(send, 503, f"too many open sessions ({len(live)}; cap {self.total})")
            return

        async def record(message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                for k, v in message.get("headers") or []:
                    if k.decode("latin-1").lower() == SESSION_HEADER:
                        self.owners[v.decode("latin-1")] = principal
            await send(message)

        self._opening[principal] = self._opening.get(principal, 0) + 1
        try:
            await self.app(scope, receive, record)
        finally:
            self._opening[principal] -= 1
            if not self._opening[principal]:
                del self._opening[principal]

    def _log_refusal(self, address: str) -> None:
        now = time.monotonic()
        last, refused = self._logged.get(address, (0.0, 0))
        if now - last >= LOG_EVERY:
            more = f" ({refused} more since the last line)" if refused else ""
            logger.warning("refused a request from %s: no valid bearer token%s", address, more)
            self._logged[address] = (now, 0)
            if len(self._logged) > 10_000:  # bounded: forget the oldest addresses
                for key in sorted(self._logged, key=lambda a: self._logged[a][0])[:5000]:
                    del self._logged[key]
        else:
            self._logged[address] = (last, refused + 1)


async def _answer(send, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
    """A JSON-RPC error body with an HTTP status (what the SDK's own refusals look like)."""
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": message}}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.encode("latin-1"), v.encode("latin-1")) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


async def _metrics(send) -> None:

    body, content_type = metrics_page()
    raw = [(b"content-type", content_type.encode()), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": raw})
    await send({"type": "http.response.body", "body": body})


def is_loopback(host: str) -> bool:
    """True for a bind only this machine reaches (127.0.0.0/8, ::1, localhost)."""

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def guarded_app(server, authenticate, settings, metrics_host: str | None = None):
    """The MCPServer's streamable-HTTP app (at /mcp) behind a SessionGuard with the settings' caps; with
    `metrics_host` (the bind address) it also serves GET /metrics, open only on a loopback bind."""
    app = server.streamable_http_app(max_sessions=settings.mcp_max_sessions + 1)  # the SDK's cap: a backstop
    manager = server.session_manager

    def live() -> set[str]:
        return set(getattr(manager, "_server_instances", {}))  # the SDK 2.3 manager's open sessions

    return SessionGuard(
        app,
        authenticate,
        live,
        per_principal=settings.mcp_sessions_per_client,
        total=settings.mcp_max_sessions,
        metrics=metrics_host is not None,
        metrics_open=metrics_host is not None and is_loopback(metrics_host),
    )


async def serve_http(
    server, authenticate, settings, host: str, port: int, metrics: bool = False, seconds: float | None = None
) -> None:
    """Serve the guarded app with uvicorn until cancelled (what `run_streamable_http_async` does, guarded);
    with `seconds`, until then (a graceful shutdown)."""

    app = guarded_app(server, authenticate, settings, metrics_host=host if metrics else None)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    uvicorn_server = uvicorn.Server(config)
    async with anyio.create_task_group() as tg:
        if seconds is not None:

            async def stop_later() -> None:
                await anyio.sleep(seconds)
                uvicorn_server.should_exit = True

            tg.start_soon(stop_later)
        await uvicorn_server.serve()
        tg.cancel_scope.cancel()
