"""Transports to one upstream whose every message is bounded while it arrives (kg_tools/gateway/limits.py).

stdio: the SDK's `stdio_client` joins each chunk of a line onto the text read so far (`buffer + chunk`),
so a 100 MB line costs minutes of CPU on the event loop, and it keeps any line whole. `stdio_client` here
is the same process handling (the SDK's spawn and shutdown: stdin closed, grace period, the process tree
killed) with a line reader in front that finds newlines once per byte and stops buffering a line at
`max_bytes`: the rest of that line is read and thrown away, and the request it answered (its id is looked
for at the line's start or end, where SDKs put it) fails with "answer larger than ...". Large lines are
parsed off the event loop. `closed` is set when the server's stdout ends (the process died or exited).

HTTP: the SDK's client with each JSON response body counted as it streams (an endless body is cut at
`max_bytes`, the request fails with a parse error naming the limit) and SSE events bounded by the SDK's
`max_sse_event_size`.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import mcp_types as types
from mcp.client import stdio as sdk
from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT
from mcp.shared.message import SessionMessage
from mcp_types import INTERNAL_ERROR, ErrorData, JSONRPCError

from kg_tools.gateway.limits import MAX_MESSAGE_BYTES, PARSE_IN_THREAD_BYTES, too_large

_EDGE = 512  # bytes kept of an oversized line's start and end, to find its id
_ID_AT_START = re.compile(rb'^\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"[^"\\]{0,200}")')
_ID_AT_END = re.compile(rb'"id"\s*:\s*(-?\d+|"[^"\\]{0,200}")\s*\}\s*$')


def oversized_id(head: bytes, tail: bytes) -> int | str | None:
    """The JSON-RPC id of a line too large to parse, from its first and last bytes (None: not found)."""

    match = _ID_AT_START.search(head) or _ID_AT_END.search(tail)
    return json.loads(match.group(1)) if match else None


class LineSplitter:
    """Bytes in, complete lines out; a line longer than `max_bytes` comes out as an `Oversized` (its
    length, first and last bytes) without being kept. Linear in the bytes read."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.buffer = bytearray()
        self.skipped = 0  # > 0 while throwing away an oversized line
        self.head = b""
        self.tail = b""

    def feed(self, chunk: bytes) -> list[bytes | Oversized]:
        out: list[bytes | Oversized] = []
        start = 0
        while start < len(chunk):
            nl = chunk.find(b"\n", start)
            end = len(chunk) if nl < 0 else nl
            part = chunk[start:end]
            if self.skipped:
                self.skipped += len(part)
                self.tail = (self.tail + part)[-_EDGE:]
            elif len(self.buffer) + len(part) > self.max_bytes:
                self.buffer += part
                self.head, self.tail = bytes(self.buffer[:_EDGE]), bytes(self.buffer[-_EDGE:])
                self.skipped = len(self.buffer)
                self.buffer = bytearray()
            else:
                self.buffer += part
            if nl < 0:
                break
            if self.skipped:
                out.append(Oversized(self.skipped, self.head, self.tail))
                self.skipped, self.head, self.tail = 0, b"", b""
            elif self.buffer.strip():
                out.append(bytes(self.buffer))
            self.buffer = bytearray()
            start = nl + 1
        return out


class Oversized:
    def __init__(self, size: int, head: bytes, tail: bytes):
        self.size, self.head, self.tail = size, head, tail


def _parse(line: bytes) -> Any:
    """A SessionMessage, or the parse error as a value (the session hands it to its message handler)."""

    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        return exc


def _refusal(item: Oversized, limit: int) -> Any:
    """The error answer to the request an oversized line answered, or an exception when its id is unknown."""

    request_id = oversized_id(item.head, item.tail)
    if request_id is None:
        return ValueError(f"a message of {item.size:,}+ bytes was dropped: {too_large(limit)}")
    return SessionMessage(
        JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=INTERNAL_ERROR, message=too_large(limit)))
    )


class StdioStreams:
    """What `stdio_client` yields: the session's streams, the process, and `closed` (stdout ended)."""

    def __init__(self, read, write, process):
        self.read, self.write, self.process = read, write, process
        self.closed = anyio.Event()


@asynccontextmanager
async def stdio_client(params, errlog, max_bytes: int = MAX_MESSAGE_BYTES) -> AsyncGenerator[StdioStreams, None]:
    """The SDK's stdio transport (its spawn and shutdown) with a bounded, linear line reader."""

    command = await sdk._get_executable_command(params.command)
    process = await sdk._create_platform_compatible_process(
        command=command,
        args=params.args,
        env=sdk.get_default_environment() | (params.env or {}),
        errlog=errlog,
        cwd=params.cwd,
    )
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)
    streams = StdioStreams(read_stream, write_stream, process)
    writer_done = anyio.Event()

    assert process.stdout is not None and process.stdin is not None, "the server is spawned with pipes"
    stdout, stdin = process.stdout, process.stdin

    async def stdout_reader() -> None:
        splitter = LineSplitter(max_bytes)
        try:
            async with read_writer:
                try:
                    async for chunk in stdout:
                        for line in splitter.feed(chunk):
                            if isinstance(line, Oversized):
                                item = _refusal(line, max_bytes)
                            elif len(line) > PARSE_IN_THREAD_BYTES:
                                item = await anyio.to_thread.run_sync(_parse, line)
                            else:
                                item = _parse(line)
                            await read_writer.send(item)
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    pass
                finally:
                    streams.closed.set()
                    await sdk._drain_stdout(process)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, ConnectionError):
            pass

    async def stdin_writer() -> None:
        try:
            async with write_reader:
                async for message in write_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    await stdin.send(data.encode())
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_writer.aclose()
        finally:
            writer_done.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(stdout_reader)
        tg.start_soon(stdin_writer)
        try:
            yield streams
        finally:
            with anyio.CancelScope(shield=True):
                read_stream.close()
                write_stream.close()
                with anyio.move_on_after(sdk._WRITER_FLUSH_TIMEOUT):
                    await writer_done.wait()
                await sdk._stop_server_process(process)
                for stream in (read_stream, write_stream, read_writer, write_reader):
                    await stream.aclose()
                await anyio.lowlevel.checkpoint()
            tg.cancel_scope.cancel()


def http_client(headers: dict[str, str], max_bytes: int = MAX_MESSAGE_BYTES):
    """The SDK's HTTP client (its timeouts), each JSON response body cut at `max_bytes` while it streams."""

    class BoundedStream(httpx2.AsyncByteStream):
        def __init__(self, inner):
            self.inner = inner

        async def __aiter__(self):
            received = 0
            async for chunk in self.inner:
                received += len(chunk)
                if received > max_bytes:
                    raise httpx2.StreamError(too_large(max_bytes))
                yield chunk

        async def aclose(self) -> None:
            await self.inner.aclose()

    class BoundedTransport(httpx2.AsyncBaseTransport):
        def __init__(self):
            self.inner = httpx2.AsyncHTTPTransport()

        async def handle_async_request(self, request):
            response = await self.inner.handle_async_request(request)
            if response.headers.get("content-type", "").lower().startswith("text/event-stream"):
                return response  # events are bounded one by one (max_sse_event_size)
            return httpx2.Response(
                response.status_code,
                headers=response.headers,
                request=request,
                stream=BoundedStream(response.stream),
                extensions=response.extensions,
            )

        async def aclose(self) -> None:
            await self.inner.aclose()

    return httpx2.AsyncClient(
        transport=BoundedTransport(),
        headers=headers,
        timeout=httpx2.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT),
    )
