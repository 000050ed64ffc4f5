"""A throwaway local Neo4j for the tests (kg_tools.neo4j_server.LocalNeo4j on free ports in a temp
home), and the settings that point at a test server."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kg_tools.neo4j_server import LocalNeo4j
from kg_tools.processes import PORT_GRACE, free_port, pid_alive, port_closes
from kg_tools.settings import Settings

if TYPE_CHECKING:
    from kg_tools.neo4j_server import LocalNeo4j


@contextmanager
def local_neo4j(
    home: Path, password: str, lib_dir: Path, *, heap: str, pagecache: str, **options: Any
) -> Iterator[LocalNeo4j]:
    """Installed and started on free Bolt and HTTP ports; stopped on leaving."""

    server = LocalNeo4j(
        home=home,
        bolt_port=free_port(),
        http_port=free_port(),
        heap=heap,
        pagecache=pagecache,
        password=password,
        lib_dir=lib_dir,
        **options,
    )
    server.install(log=lambda *_: None)
    server.start(log=lambda *_: None)
    try:
        yield server
    finally:
        server.stop(log=lambda *_: None)


@contextmanager
def own_server(tmp_path_factory, neo4j_service, name: str) -> Iterator[LocalNeo4j]:
    """A Neo4j of one test module's own, on free ports, that its tests may stop, kill and restart (skipped
    unless the session runs the local Maven-assembled server)."""

    if neo4j_service.how != "local":
        pytest.skip("needs the local Maven-assembled Neo4j (stop/start/kill of a server the test owns)")

    lib = LocalNeo4j.from_settings(Settings()).lib
    home = tmp_path_factory.mktemp(f"neo4j-{name}")
    with local_neo4j(home, f"{name}-" + os.urandom(6).hex(), lib, heap="512m", pagecache="64m") as server:
        yield server


def settings_for(uri: str, user: str, password: str, **options: Any) -> Settings:
    """Settings for a test server: no API key and no LLM, whatever the environment sets."""
    return Settings(
        neo4j_uri=uri, neo4j_user=user, neo4j_password=password, api_key=None, openai_base_url=None, **options
    )


def kill(server: LocalNeo4j) -> int:
    """kill -9 the server's JVM and wait until it is gone and its Bolt port closed; its pid."""
    pid = server.pid()
    assert pid is not None, "Neo4j is not running"
    os.kill(pid, signal.SIGKILL)
    while pid_alive(pid):
        time.sleep(0.05)
    assert port_closes(server.bolt_port, PORT_GRACE), f"port {server.bolt_port} still open after kill -9"
    return pid
