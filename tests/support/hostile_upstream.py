"""Hostile MCP upstreams for the gateway tests (issue 30), speaking raw JSON-RPC so they can misbehave.

    python tests/support/hostile_upstream.py stdio [--starts FILE]   # an MCP server on stdin/stdout
    python tests/support/hostile_upstream.py endless-http PORT       # answers every HTTP request with endless JSON

stdio tools: `echo(text)`; `huge(mb)` answers with a text of `mb` MB (written in chunks, never held);
`large(kb)` a text of `kb` KB; `grep(s)` whose input schema has the catastrophic pattern `^(a+)+$`;
`stuck()` never answers; `crash()` exits the process at once. --starts FILE gets a line per start (so a
test sees it restarted).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import threading

TOOLS = [
    {"name": "echo", "description": "Echo the text back.", "inputSchema": {"type": "object"}},
    {
        "name": "huge",
        "description": "Answer with a text of `mb` megabytes.",
        "inputSchema": {"type": "object", "properties": {"mb": {"type": "integer"}}, "required": ["mb"]},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "large",
        "description": "Answer with a text of `kb` kilobytes.",
        "inputSchema": {"type": "object", "properties": {"kb": {"type": "integer"}}, "required": ["kb"]},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "grep",
        "description": "Match a string of a's.",
        "inputSchema": {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}},
        "annotations": {"readOnlyHint": True},
    },
    {"name": "stuck", "description": "Never answers.", "inputSchema": {"type": "object"}},
    {
        "name": "crash",
        "description": "Exits the server at once.",
        "inputSchema": {"type": "object"},
        "annotations": {"destructiveHint": True},
    },
]
for tool in TOOLS:
    tool.setdefault("annotations", {"readOnlyHint": True})


LOCK = threading.Lock()  # one answer at a time on stdout (huge is written by a thread)


def send(out, message: dict) -> None:
    with LOCK:
        out.write(json.dumps(message).encode() + b"\n")
        out.flush()


def text_result(out, request_id, size: int) -> None:
    """A tools/call result of `size` bytes of text, written in 1 MiB chunks."""
    with LOCK:
        _text_result(out, request_id, size)


def _text_result(out, request_id, size: int) -> None:
    out.write(b'{"jsonrpc":"2.0","id":' + json.dumps(request_id).encode() + b',"result":{"content":[')
    out.write(b'{"type":"text","text":"')
    chunk = b"x" * (1 << 20)
    left = size
    while left > 0:
        out.write(chunk[: min(left, len(chunk))])
        left -= len(chunk)
    out.write(b'"}]}}\n')
    out.flush()


def stdio(starts: str | None) -> None:
    if starts:
        with open(starts, "a") as f:
            f.write("start\n")
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        message = json.loads(line)
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        if method == "initialize":
            result = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": "hostile", "version": "1"},
            }
            send(out, {"jsonrpc": "2.0", "id": request_id, "result": result})
        elif method == "tools/list":
            send(out, {"jsonrpc": "2.0", "id": request_id, "result": {"tools": TOOLS}})
        elif method == "tools/call":
            name, args = message["params"]["name"], message["params"].get("arguments") or {}
            if name == "huge":
                threading.Thread(target=text_result, args=(out, request_id, args["mb"] * 1_000_000)).start()
            elif name == "large":
                text_result(out, request_id, args["kb"] * 1000)
            elif name == "crash":
                sys.stdout.flush()

                os._exit(3)
            elif name == "stuck":
                continue
            else:
                content = [{"type": "text", "text": json.dumps(args)}]
                send(out, {"jsonrpc": "2.0", "id": request_id, "result": {"content": content}})
        else:
            send(out, {"jsonrpc": "2.0", "id": request_id, "result": {}})


def endless_http(port: int) -> None:
    """Every request: 200, application/json, a body that never ends (no length, no chunk end)."""
    server = socket.create_server(("127.0.0.1", port))

    def answer(conn: socket.socket) -> None:
        try:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n")
            conn.sendall(b'{"jsonrpc":"2.0","id":0,"result":{"serverInfo":{"name":"')
            chunk = b"a" * 65536
            while True:
                conn.sendall(chunk)
        except OSError:
            pass
        finally:
            conn.close()

    while True:
        conn, _ = server.accept()
        threading.Thread(target=answer, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    if sys.argv[1] == "stdio":
        stdio(sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--starts" else None)
    else:
        endless_http(int(sys.argv[2]))
