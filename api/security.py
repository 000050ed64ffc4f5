"""Browser-borne attacks on a server without a key (docs/security.md): DNS rebinding and cross-site writes.

`RequestGuard` (ASGI middleware, before everything else):
- `Host` must be one this server answers to (`allowed_hosts`), else 421 `misdirected_request`: a page on
  evil.example whose name is re-pointed at 127.0.0.1 still sends `Host: evil.example`.
- A request that can change something (POST, PUT, PATCH, DELETE) with an `Origin` header must come from
  this server's own origin or an allowed one, else 403 `forbidden_origin`. Browsers send `Origin` on every
  cross-origin request of these methods; other clients send none and pass.
- Its body, when it has a `Content-Type`, must be JSON (`application/json`, `*/*+json`), or for a catalog
  import also YAML, else 415 `unsupported_media_type`: `text/plain` and form encodings are what a browser
  may send cross-origin without asking first (a CORS "simple request").

The same checks as the MCP SDK's transport security (mcp.server.transport_security), with our `Error` body.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from kg_tools.api.errors import error_body

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
JSON_TYPES = ("application/json",)
YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")
DEFAULT_PORTS = {"http": "80", "https": "443"}


def default_allowed_hosts(bind_host: str) -> list[str]:
    """The bind address decides: loopback -> the loopback names; all interfaces (0.0.0.0, ::) -> any
    Host ('*'; set KG_TOOLS_API_ALLOWED_HOSTS to the names clients use); another address -> it and loopback."""
    host = bind_host.strip().lower()
    if host in ("", "0.0.0.0", "::", "[::]", "*"):
        return ["*"]
    if host in ("127.0.0.1", "localhost", "::1", "[::1]"):
        return list(LOOPBACK_HOSTS)
    return [f"[{host}]" if ":" in host else host, *LOOPBACK_HOSTS]


def _split_host(value: str) -> tuple[str, str | None]:
    """'Example.org:8000' -> ('example.org', '8000'); '[::1]:80' -> ('[::1]', '80'); no port -> None."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        host, rest = value[: end + 1], value[end + 1 :]
        return host, rest[1:] if rest.startswith(":") else None
    host, _, port = value.partition(":")
    return host, port or None


def host_allowed(host: str | None, allowed: list[str]) -> bool:
    """An entry `name` allows that name on any port, `name:port` only that port, `*` anything."""
    if "*" in allowed:
        return True
    if not host:
        return False
    name, port = _split_host(host)
    for entry in allowed:
        e_name, e_port = _split_host(entry)
        if e_name == name and (e_port in (None, "*") or e_port == port):
            return True
    return False


def origin_allowed(origin: str, host: str | None, allowed: list[str]) -> bool:
    """Same origin as the request's Host, or listed (`scheme://name[:port]`, port `*` for any)."""
    origin = origin.strip().lower().rstrip("/")
    parts = urlsplit(origin)
    if parts.scheme not in DEFAULT_PORTS or not parts.netloc:
        return origin in (a.lower().rstrip("/") for a in allowed)  # 'null' only when listed
    name, port = _split_host(parts.netloc)
    port = port or DEFAULT_PORTS[parts.scheme]
    if host:
        h_name, h_port = _split_host(host)
        if h_name == name and (h_port or DEFAULT_PORTS[parts.scheme]) == port:
            return True
    for entry in allowed:
        e = urlsplit(entry.strip().lower().rstrip("/"))
        if e.scheme != parts.scheme or not e.netloc:
            continue
        e_name, e_port = _split_host(e.netloc)
        if e_name == name and (e_port == "*" or (e_port or DEFAULT_PORTS[e.scheme]) == port):
            return True
    return False


def media_type(content_type: str) -> str:
    return content_type.split(";")[0].strip().lower()


def json_or_yaml(kind: str, yaml_allowed: bool) -> bool:
    return (
        kind in JSON_TYPES
        or (kind.startswith("application/") and kind.endswith("+json"))
        or (yaml_allowed and kind in YAML_TYPES)
    )


class RequestGuard:
    def __init__(
        self, app: ASGIApp, allowed_hosts: list[str], allowed_origins: list[str], yaml_allowed: Callable[[str], bool]
    ):
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.allowed_origins = allowed_origins
        self.yaml_allowed = yaml_allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        refusal = self.refusal(scope)
        if refusal is not None:
            return await error_body(*refusal)(scope, receive, send)
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        headers: dict[bytes, bytes] = {}
        for key, value in scope.get("headers", []):
            headers.setdefault(key, value)
        host = headers.get(b"host", b"").decode("latin-1") or None
        if not host_allowed(host, self.allowed_hosts):
            return (
                421,
                "misdirected_request",
                f"this server does not answer to the host {(host or '(none)')[:100]!r}; allowed: "
                f"{', '.join(self.allowed_hosts)} (KG_TOOLS_API_ALLOWED_HOSTS)",
            )
        if scope["method"] not in UNSAFE_METHODS:
            return None
        origin = headers.get(b"origin", b"").decode("latin-1")
        if origin and not origin_allowed(origin, host, self.allowed_origins):
            return (
                403,
                "forbidden_origin",
                f"a {scope['method']} from the origin {origin[:100]!r} is refused: only this server's own "
                "origin and those in KG_TOOLS_API_ALLOWED_ORIGINS may change things",
            )
        content_type = headers.get(b"content-type", b"").decode("latin-1")
        if content_type:
            yaml_ok = self.yaml_allowed(scope["path"])
            if not json_or_yaml(media_type(content_type), yaml_ok):
                accepted = "JSON or YAML (application/json, application/yaml)" if yaml_ok else "JSON (application/json)"
                return (
                    415,
                    "unsupported_media_type",
                    f"the body's Content-Type {content_type[:100]!r} is not accepted: send {accepted}",
                )
        return None
