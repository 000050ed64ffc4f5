"""An MCP client session over streamable HTTP with a bearer token (the SDK's client), for the tests of the
HTTP gateway and `kg-tools mcp --transport http`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


@asynccontextmanager
async def bearer_session(url: str, token: str | None, timeout: float = 300) -> AsyncIterator[ClientSession]:
    """A ClientSession on `url` (…/mcp) sending `Authorization: Bearer <token>`; not yet initialized (the
    caller chooses `initialize()` or, for 2026-07-28, `discover()`)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=timeout) as client,
        streamable_http_client(url, http_client=client) as (read, write),
        ClientSession(read, write) as session,
    ):
        yield session
