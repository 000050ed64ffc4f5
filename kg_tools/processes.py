"""Small helpers for the background processes kg-tools starts (Neo4j, the API): ports, pid files
that identify their own process, and stopping only that pid."""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


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
