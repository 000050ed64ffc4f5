"""An ASGI app served by uvicorn on a free loopback port in a daemon thread (tests that need real HTTP)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from kg_tools.processes import free_port


@contextmanager
def serve_in_thread(app, **config) -> Iterator[str]:
    """Yields the base URL once uvicorn has started; stops it afterwards. `config`: uvicorn.Config options."""

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.1)
    assert server.started, "uvicorn did not start within 60 s"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
