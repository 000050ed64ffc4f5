"""Running `kg-tools` from a test: the environment that points it at the test Neo4j, and the command in
a fresh interpreter, as a user (or an MCP client) runs it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

from kg_tools import PROJECT_ROOT
from kg_tools.processes import free_port
from kg_tools.settings import Settings


def neo4j_env(settings: Settings, **extra: str) -> dict[str, str]:
    """NEO4J_URI, NEO4J_USER and NEO4J_PASSWORD of `settings` (plus `extra`), for a `kg-tools` run."""
    return {
        "NEO4J_URI": settings.neo4j_uri,
        "NEO4J_USER": settings.neo4j_user,
        "NEO4J_PASSWORD": settings.neo4j_password,
        **extra,
    }


def kg_tools_process(*args: str, neo4j: Settings | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """`python -m kg_tools.cli ARGS` with a bare environment, its output captured. Its Neo4j is the one of
    `neo4j`, else a free port where nothing listens (for what a command says before it needs Neo4j)."""
    env = {"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"}
    if neo4j is None:
        env |= {"NEO4J_URI": f"bolt://127.0.0.1:{free_port()}", "NEO4J_PASSWORD": "x"}
    else:
        env |= neo4j_env(neo4j)
    return subprocess.run(
        [sys.executable, "-m", "kg_tools.cli", *args], env=env, capture_output=True, text=True, timeout=timeout
    )


def kg_tools_env(settings: Settings, **extra: str) -> dict[str, str]:
    """The environment of a `kg-tools` server started by a test: this process's, without an LLM or an
    API key, on the test Neo4j."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "KG_TOOLS_API_KEY"))}
    return env | neo4j_env(settings, PYTHONPATH=str(PROJECT_ROOT), **extra)


def wait_for_port(port: int, proc: subprocess.Popen, what: str, timeout: float) -> None:
    """Until the server `what` (the process `proc`) listens on `port`; fails at once if it exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            stderr = proc.stderr.read() if proc.stderr else ""
            raise AssertionError(f"{what} exited with {proc.returncode}: {stderr}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"{what} did not open its port")


def start_http(args: list[str], env: dict, what: str, *, cwd=PROJECT_ROOT, stderr=subprocess.PIPE):
    """`kg-tools ARGS --transport http` on a free port in a fresh interpreter, once it listens: (process, port).
    `stderr` a pipe (text, read by `stop_http`) or a file."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kg_tools.cli", *args, "--transport", "http", "--port", str(port)],
        env=env,
        cwd=str(cwd),
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        text=True,
    )
    wait_for_port(port, proc, what, timeout=300)
    return proc, port


def stop_http(proc: subprocess.Popen) -> str:
    """Terminate a process of `start_http` (killed after 20 s); its stderr when piped."""
    proc.terminate()
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err or ""
