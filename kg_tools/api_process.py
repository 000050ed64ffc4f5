"""The API as a background process for `kg-tools up` / `kg-tools down`: pid file under the Neo4j
home's run/ directory, log file under its logs/, stopped only by its own pid."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from kg_tools.errors import KgToolsError
from kg_tools.processes import PORT_GRACE, own_pid, port_closes, terminate

MARKER = "from kg_tools.cli import main; main()"


@dataclass
class ApiProcess:
    home: Path
    host: str = "127.0.0.1"
    port: int = 8000

    @classmethod
    def from_settings(cls, settings) -> ApiProcess:
        return cls(Path(settings.neo4j_home), settings.api_host, settings.api_port)

    @property
    def pid_file(self) -> Path:
        return self.home / "run" / "kg-tools-api.pid"

    @property
    def log_file(self) -> Path:
        return self.home / "logs" / "api.log"

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def pid(self) -> int | None:
        """Our API's pid if it runs; a stale pid file is removed."""
        return own_pid(self.pid_file, MARKER, " serve ")

    def start(self, env: dict | None = None, timeout: float = 180.0, log=print) -> int:
        pid = self.pid()
        if pid is not None:
            log(f"REST API already running (pid {pid}) at {self.url}")
            return pid
        if not port_closes(self.port, PORT_GRACE):
            raise KgToolsError(f"port {self.port} is already in use: set KG_TOOLS_API_PORT to a free port")
        self.pid_file.parent.mkdir(parents=True, exist_ok=True)
        self.log_file.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_file, "ab") as out:
            proc = subprocess.Popen(
                [sys.executable, "-c", MARKER, "serve", "--host", self.host, "--port", str(self.port)],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                env={**os.environ, **(env or {})},
            )
        self.pid_file.write_text(str(proc.pid))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                self.pid_file.unlink(missing_ok=True)
                tail = self.log_file.read_text(errors="replace")[-2000:]
                raise KgToolsError(f"the REST API exited with code {proc.returncode}:\n{tail}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    log(f"REST API started (pid {proc.pid}) at {self.url}; log {self.log_file}")
                    return proc.pid
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        self.stop(log=lambda *_: None)
        raise KgToolsError(f"the REST API did not answer within {timeout:.0f}s; see {self.log_file}")

    def stop(self, timeout: float = 20.0, log=print) -> bool:
        pid = self.pid()
        if pid is None:
            log("REST API is not running")
            return False
        terminate(pid, self.pid_file, timeout)
        log(f"REST API stopped (pid {pid})")
        return True
