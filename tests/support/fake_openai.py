"""A small OpenAI-compatible HTTP server for tests (the only thing that cannot exist here is an LLM).

Script answers with `server.script(handler)`: handler(request_json) -> str (message content), or a
dict {"status": 500} / {"delay": 5.0, "content": ...} / {"refusal": "..."} /
{"tool_calls": [{"name": ..., "arguments": {...}}]} (an assistant turn that calls tools). Requests are recorded.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class QuietServer(ThreadingHTTPServer):
    """A client that hangs up before its answer is written (a test that timed out or is done) is no error: the
    default prints a traceback to stderr, where a later test that checks its own stderr finds it."""

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # BrokenPipeError, ConnectionResetError ...
            super().handle_error(request, client_address)


class FakeOpenAI:
    def __init__(self):
        self.requests: list[dict] = []
        self.handler: Callable[[dict], object] = lambda req: "{}"
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                fake.requests.append(body)
                answer = fake.handler(body)
                if isinstance(answer, str):
                    answer = {"content": answer}
                if answer.get("delay"):
                    time.sleep(answer["delay"])
                if answer.get("status", 200) != 200:
                    self._send(answer["status"], {"error": {"message": "scripted failure", "type": "server_error"}})
                    return
                message = {"role": "assistant", "content": answer.get("content"), "refusal": answer.get("refusal")}
                calls = answer.get("tool_calls") or []
                if calls:
                    message["tool_calls"] = [
                        {
                            "id": f"call_{len(fake.requests)}_{i}",
                            "type": "function",
                            "function": {"name": c["name"], "arguments": json.dumps(c.get("arguments", {}))},
                        }
                        for i, c in enumerate(calls)
                    ]
                self._send(
                    200,
                    {
                        "id": "chatcmpl-test",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "test"),
                        "choices": [
                            {"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}
                        ],
                        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                    },
                )

            def _send(self, status, payload):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = QuietServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def script(self, handler: Callable[[dict], object]) -> None:
        self.handler = handler
        self.requests.clear()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    @staticmethod
    def user_prompt(request: dict) -> str:
        return next(m["content"] for m in reversed(request["messages"]) if m["role"] == "user")
