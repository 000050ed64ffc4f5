"""Small helpers for the background processes kg-tools starts (Neo4j, the API): ports, pid files
that identify their own process, and stopping only that pid."""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

PORT_GRACE = 10.0  # seconds a start waits for a port a just-stopped process still holds


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    """Whether something listens on `port`. A connect to a closed port in the ephemeral range can,
    rarely, be given that same port as its source and connect to itself: that is no listener."""
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0 and s.getsockname() != s.getpeername()


def port_closes(port: int, timeout: float, host: str = "127.0.0.1") -> bool:
    """Wait up to `timeout` seconds for nothing to listen on `port` (a process just killed closes its
    sockets a moment after its main thread is gone); whether it is free now."""
    deadline = time.monotonic() + timeout
    while port_open(port, host):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)
    return True


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is not alive
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def own_pid(pid_file: Path, *markers: str) -> int | None:
    """The pid in `pid_file` if that process is alive and its command line has every marker;
    otherwise the (stale) pid file is removed and None returned."""
    try:
        pid = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        pid = -1
    if pid > 0 and pid_alive(pid) and all(m in cmdline(pid) for m in markers):
        return pid
    pid_file.unlink(missing_ok=True)
    return None


def terminate(pid: int, pid_file: Path, timeout: float) -> None:
    """SIGTERM, wait up to `timeout`, then SIGKILL; remove the pid file."""
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and pid_alive(pid):
        time.sleep(0.2)
    if pid_alive(pid):
        os.kill(pid, signal.SIGKILL)
    pid_file.unlink(missing_ok=True)
