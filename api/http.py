"""HTTP plumbing below the routes: request body limits, path segments that may hold any character
(tool names with '/', spaces, quotes, unicode), and JSON bodies that are valid Unicode.

- `BodyLimit` (ASGI middleware): a body over the limit is refused with 413 and an `Error` body: at
  once when Content-Length says so (nothing is read), else as soon as the limit is crossed while
  reading (chunked bodies).
- `RawPath` (ASGI middleware) + the `segment` path convertor: Starlette routes on the percent-DECODED
  path, so `/v1/tools/a%2Fb` would become `/v1/tools/a/b` and miss the route. Under `/v1/` the
  router sees the path as sent (still encoded) and every path parameter is exactly one segment,
  decoded by the convertor: `a%2Fb` is the tool `a/b`, `x%2Fdependencies` is the tool
  `x/dependencies`, never the dependencies of `x`.
- `KgRoute`: JSON bodies parsed by `json.loads` may carry lone UTF-16 surrogates ("\\ud800"), which
  neither Neo4j nor the tokenizer accept; they are refused like malformed JSON (400).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from urllib.parse import quote, unquote

from fastapi import Request
from fastapi.routing import APIRoute
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kg_tools.api.errors import error_body
from kg_tools.tool_spec import lone_surrogate

RAW_PREFIX = "/v1/"
_SAFE = "/%!$&'()*+,;=:@~-._"  # what may stay as it is in a path (RFC 3986 pchar + '/' + '%')


class SegmentConvertor(Convertor):
    """One path segment, percent-decoded (after `RawPath`, '/' inside a value arrives as %2F)."""

    regex = "[^/]+"

    def convert(self, value: str) -> str:
        return unquote(value)

    def to_string(self, value: str) -> str:
        return quote(value, safe="")


register_url_convertor("segment", SegmentConvertor())


class RawPath:
    """Route `/v1/...` on the path as the client sent it (percent-encoding kept)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith(RAW_PREFIX) and scope.get("raw_path"):
            # The bytes as sent, as ASCII text with the escapes kept (raw_path and path both include
            # any root_path). Trusted as the ASGI spec defines it: Starlette's TestClient even decodes
            # `path` twice (%2525 -> %25 -> %), raw_path is right.
            raw = quote(scope["raw_path"], safe=_SAFE)
            if raw.startswith(RAW_PREFIX):
                scope = {**scope, "path": raw}
        await self.app(scope, receive, send)


class BodyLimit:
    """413 for a request body larger than `limit_for(path)` bytes."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[str], int]):
        self.app = app
        self.limit_for = limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = self.limit_for(scope["path"])
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            response = error_body(413, "payload_too_large", too_large(limit, declared))
            return await response(scope, receive, send)
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise HTTPException(413, too_large(limit))
            return message

        await self.app(scope, limited, send)


def too_large(limit: int, size: int | None = None) -> str:
    got = f" ({size:,} bytes sent)" if size is not None else ""
    return f"the request body is larger than the limit of {limit:,} bytes{got}"


def _content_length(scope: Scope) -> int | None:
    for key, value in scope.get("headers", []):
        if key == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class UnicodeJSONRequest(Request):
    """`request.json()` that refuses strings with lone surrogates (raised as a JSON error: 400)."""

    async def json(self):
        if not hasattr(self, "_json"):
            value = json.loads(await self.body())
            where = lone_surrogate(value)
            if where:
                raise json.JSONDecodeError(f"{where} (not valid Unicode)", "", 0)
            self._json = value
        return self._json


class KgRoute(APIRoute):
    """The route class of every API router (see `UnicodeJSONRequest`)."""

    def get_route_handler(self):
        handler = super().get_route_handler()

        async def route(request: Request):
            return await handler(UnicodeJSONRequest(request.scope, request.receive))

        return route
