"""Run one gateway Upstream (kg_tools/gateway/upstream.py) without Neo4j: its tool-list syncs are only
recorded, and a test's `body(upstream)` runs once it is ready."""

from __future__ import annotations

import anyio

from kg_tools.gateway.config import UpstreamConfig
from kg_tools.gateway.upstream import Upstream


def run_upstream(config: UpstreamConfig, body, start_timeout: float = 60) -> list[list[str]]:
    """The tool names of each sync of an Upstream on `config`, while `body(upstream)` runs (two minutes at most)."""
    syncs: list[list[str]] = []

    async def on_tools(upstream):
        syncs.append(sorted(t.name for t in upstream.tools))

    async def run():
        upstream = Upstream("up", config, start_timeout=start_timeout, on_tools=on_tools)
        with anyio.fail_after(120):
            async with anyio.create_task_group() as tg:
                tg.start_soon(upstream.run)
                await upstream.started.wait()
                assert upstream.state == "ready", upstream.error
                await body(upstream)
                tg.cancel_scope.cancel()

    anyio.run(run)
    return syncs
