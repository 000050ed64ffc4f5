"""Starting tests/support/modern_upstream.mjs: an MCP server that speaks ONLY the 2026-07-28 protocol
(the official TypeScript SDK's server, `legacy: 'reject'`), over stdio or streamable HTTP, and the paths
of the npm servers it and the legacy-only tests use (installed by scripts/setup-mcp-servers)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

from kg_tools import PROJECT_ROOT
from kg_tools.processes import free_port
from tests.support.cli_process import wait_for_port

MODERN_UPSTREAM = PROJECT_ROOT / "tests" / "support" / "modern_upstream.mjs"
NPM = PROJECT_ROOT / ".npm-servers" / "node_modules"
TS_SERVER_SDK = NPM / "@modelcontextprotocol" / "server" / "package.json"  # 2.x: speaks 2026-07-28
MEMORY_SERVER = NPM / "@modelcontextprotocol" / "server-memory" / "dist" / "index.js"  # SDK 1.x: 2025-11-25 only


def npm_servers() -> bool:
    """The npm servers are installed (scripts/setup-mcp-servers)."""
    return TS_SERVER_SDK.exists() and MEMORY_SERVER.exists()


def stdio_config() -> dict:
    """The gateway config entry of the 2026-only upstream over stdio."""
    return {"command": "node", "args": [str(MODERN_UPSTREAM)]}


@contextmanager
def modern_http_upstream() -> Iterator[str]:
    """The 2026-only upstream over streamable HTTP: its URL while it runs."""

    port = free_port()
    proc = subprocess.Popen(
        ["node", str(MODERN_UPSTREAM), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_port(port, proc, "modern_upstream.mjs --http", timeout=60)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.kill()
        proc.wait()
