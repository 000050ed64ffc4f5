"""`kg-tools load mcp` against hostile or careless servers (issue 23, items 6 and 11): over HTTP a server
that never stops sending (an endless JSON body, an endless event stream), paginates forever or repeats a
cursor is stopped by a size, page or time limit with one clear error; a stdio server that writes lines
that are not JSON-RPC to stdout gets a warning line per line, never a traceback.

The hostile HTTP server is a hand-written streamable HTTP MCP endpoint (Starlette under uvicorn)."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from kg_tools.errors import CatalogError
from kg_tools.loaders import mcp_server
from tests.support import FIXTURES
from tests.support.cli_process import kg_tools_process
from tests.support.http_server import serve_in_thread

TINY_MCP = FIXTURES / "tiny_mcp_server.py"
TOOL = {"name": "x", "description": "a tool", "inputSchema": {"type": "object"}}


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def hostile_app(mode: str) -> Starlette:
    pages = {"n": 0}

    def result(message: dict, value: dict) -> dict:
        return {"jsonrpc": "2.0", "id": message["id"], "result": value}

    async def endless(head: bytes, chunk: bytes, tail: bytes = b""):
        yield head
        while True:
            yield chunk
            await asyncio.sleep(0)

    async def mcp(request: Request) -> Response:
        if request.method != "POST":
            return Response(status_code=405 if request.method == "GET" else 200)
        message = json.loads(await request.body())
        method = message.get("method")
        if "id" not in message:  # notifications/initialized
            return Response(status_code=202)
        if method == "initialize":
            return JSONResponse(
                result(
                    message,
                    {
                        "protocolVersion": message["params"]["protocolVersion"],
                        "capabilities": {"tools": {}},
                        "serverInfo": {"name": "hostile", "version": "1"},
                    },
                ),
                headers={"mcp-session-id": "s1"},
            )
        if method != "tools/list":
            return JSONResponse({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "no"}})
        pages["n"] += 1
        if mode == "endless-pages":
            return JSONResponse(
                result(message, {"tools": [TOOL | {"name": f"t{pages['n']}"}], "nextCursor": f"c{pages['n']}"})
            )
        if mode == "repeated-cursor":
            return JSONResponse(result(message, {"tools": [TOOL | {"name": f"t{pages['n']}"}], "nextCursor": "same"}))
        if mode == "endless-json":
            head = json.dumps(result(message, {"tools": []}))[:-3].encode()  # ... "tools": [
            return StreamingResponse(
                endless(head, (json.dumps(TOOL) + ",").encode() * 500), media_type="application/json"
            )
        if mode == "endless-event":  # one event whose data never ends
            return StreamingResponse(endless(b"event: message\ndata: ", b"x" * 65536), media_type="text/event-stream")
        if mode == "endless-events":  # complete events forever, none of them the answer
            note = json.dumps(
                {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "y" * 4000}}
            )
            return StreamingResponse(
                endless(b"", f"event: message\ndata: {note}\n\n".encode()), media_type="text/event-stream"
            )
        if mode in ("deep-json", "deep-event"):  # an answer nested far deeper than a parser's recursion limit
            deep = "[" * 100_000 + "]" * 100_000
            body = json.dumps(result(message, {"tools": [TOOL]})).replace('"object"', f'"object", "x": {deep}')
            if mode == "deep-event":
                return Response(f"event: message\ndata: {body}\n\n", media_type="text/event-stream")
            return Response(body, media_type="application/json")
        if mode == "silent":  # the answer never comes
            return StreamingResponse(endless(b"", b": keep-alive\n\n"), media_type="text/event-stream")
        raise AssertionError(mode)

    return Starlette(routes=[Route("/mcp", mcp, methods=["GET", "POST", "DELETE"])])


@pytest.mark.parametrize(
    "mode, limits, message",
    [
        ("endless-json", {"max_bytes": 2 * 2**20}, "sent more than 2,097,152 bytes"),
        ("endless-event", {"max_bytes": 2 * 2**20}, "sent more than 2,097,152 bytes"),
        ("endless-events", {"max_bytes": 2 * 2**20}, "sent more than 2,097,152 bytes"),
        ("endless-pages", {"max_pages": 50}, "did not end within 50 pages"),
        ("endless-pages", {"max_tools": 30}, "more than 30 tools"),
        ("repeated-cursor", {}, "repeated the cursor 'same'"),
        ("silent", {"timeout": 3}, "no tool list within 3s"),
        ("deep-json", {}, "its answer is not valid JSON-RPC: Invalid JSON: recursion limit exceeded at line 1"),
        ("deep-event", {}, "its answer is not valid JSON-RPC: Invalid JSON: recursion limit exceeded at line 1"),
    ],
)
def test_a_hostile_http_server_is_stopped_with_one_clear_error(mode, limits, message):
    with serve_in_thread(hostile_app(mode)) as url:
        before, started = rss_mib(), time.perf_counter()
        with pytest.raises(CatalogError, match=message) as caught:
            mcp_server.load(url=f"{url}/mcp", **limits)
        seconds = time.perf_counter() - started
    assert "\n" not in str(caught.value) and str(caught.value).startswith(f"MCP server {url}/mcp: ")
    assert seconds < 30 and rss_mib() - before < 100


def test_the_default_limits_stop_an_endless_event_stream():
    """The issue's case with the shipped limits: the server streams one event forever."""
    with serve_in_thread(hostile_app("endless-event")) as url:
        before, started = rss_mib(), time.perf_counter()
        with pytest.raises(CatalogError, match=f"sent more than {mcp_server.MAX_RESPONSE_BYTES:,} bytes"):
            mcp_server.load(url=f"{url}/mcp")
        seconds, grown = time.perf_counter() - started, rss_mib() - before
    print(f"endless event stream refused after {seconds:.1f}s, RSS +{grown:.0f} MiB")
    assert seconds < mcp_server.TIMEOUT_SECONDS and grown < 200


def test_the_cli_says_one_error_line_for_a_pagination_loop():
    with serve_in_thread(hostile_app("repeated-cursor")) as url:
        done = kg_tools_process("load", "mcp", "--url", f"{url}/mcp")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"error: MCP server {url}/mcp: tools/list repeated the cursor 'same' (a pagination loop) after 2 pages"
    ]


@pytest.mark.parametrize("mode", ["deep-json", "deep-event"])
def test_the_cli_says_one_error_line_for_an_answer_nested_too_deeply(mode):
    """The SDK logged its parse error with a traceback and ended in pydantic's multi-line report."""
    with serve_in_thread(hostile_app(mode)) as url:
        done = kg_tools_process("load", "mcp", "--url", f"{url}/mcp")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error: MCP server {url}/mcp: its answer is not valid JSON-RPC: Invalid JSON: recursion limit exceeded at"
    ), done.stderr


# -- item 11: junk on a stdio server's stdout ------------------------------------------------------

JUNKY_SERVER = f"""
import runpy, sys
print("Starting the notes server...", flush=True)   # junk before the handshake
print("{{not json", flush=True)
sys.argv = [{str(TINY_MCP)!r}]
runpy.run_path({str(TINY_MCP)!r}, run_name="__main__")
"""


def test_junk_lines_on_a_stdio_servers_stdout_are_warnings_not_tracebacks(tmp_path):
    script = tmp_path / "junky_server.py"
    script.write_text(JUNKY_SERVER)
    source = mcp_server.load([sys.executable, str(script)])
    assert {t["name"] for t in source.tools} == {"create_note", "search_notes", "delete_note"}
    assert len(source.warnings) == 2 and "Starting the notes server" in source.warnings[0]
    # through the CLI: the loader's part of the output (before Neo4j is needed) has warnings, no traceback
    done = kg_tools_process("load", "mcp", "--", sys.executable, str(script))
    assert "Traceback" not in done.stderr and "Failed to parse JSONRPC" not in done.stderr, done.stderr
    assert [line for line in done.stdout.splitlines() if line.startswith("warning: ")] == [
        "warning: MCP server wrote a line to stdout that is not JSON-RPC (ignored): 'Starting the notes server...'",
        "warning: MCP server wrote a line to stdout that is not JSON-RPC (ignored): '{not json'",
    ]
    assert (
        done.stderr.strip().splitlines()[-1].startswith("error: ")
    )  # no Neo4j at that port: the load itself fails after the warnings
