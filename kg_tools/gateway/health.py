"""Each upstream's health as `kg-tools gateway status` shows it: a small JSON file the running gateway
rewrites when an upstream's state changes (and every STATUS_SECONDS), one per config file, under the
Neo4j home's run/ directory (where `kg-tools serve` keeps its pid file).

    {"pid": 123, "config": "/abs/gateway.json", "written_at": 1795..., "servers": [
       {"server": "fs", "state": "ready", "available": true, "error": null, "since": ..., "restarts": 0,
        "retry_at": null, "tools": 14}, ...]}

States: starting (first start), ready, down (it failed: `error` says how; it is started again at
`retry_at`). A down server's tools are not offered by search_tools and its calls fail naming it.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from kg_tools.processes import pid_alive

STATUS_SECONDS = 10.0


def status_path(settings, config_path: str | Path) -> Path:
    key = hashlib.sha256(str(Path(config_path).resolve()).encode()).hexdigest()[:16]
    return Path(settings.neo4j_home) / "run" / f"gateway-{key}.json"


def write_status(path: Path, config_path: str | Path, servers: list[dict]) -> None:
    """Atomically (a temp file renamed over it): a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "pid": os.getpid(),
        "config": str(Path(config_path).resolve()),
        "written_at": round(time.time(), 3),
        "servers": servers,
    }
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(document, indent=2))
    tmp.replace(path)


def read_status(path: Path) -> dict | None:
    """The last status written, with `running` (its gateway process is alive); None when there is none."""

    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    document["running"] = bool(document.get("pid")) and pid_alive(int(document["pid"]))
    return document


def status_lines(document: dict) -> list[str]:
    """One line per upstream: name, state, tools, restarts and the last error."""
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(document.get("written_at") or 0))
    head = (
        f"gateway pid {document['pid']} running; status of {when}"
        if document.get("running")
        else f"gateway not running (pid {document.get('pid')} gone); last status of {when}"
    )
    lines = [head]
    for s in document.get("servers", []):
        extra = []
        if s.get("restarts"):
            extra.append(f"{s['restarts']} restart(s)")
        if s.get("retry_at") and s.get("state") == "down":
            extra.append(f"next start in {max(0, s['retry_at'] - time.time()):.0f}s")
        if s.get("error"):
            extra.append(f"last error: {s['error']}")
        lines.append(
            f"{s['server']}: {s['state']}, {s.get('tools', 0)} tools" + ("; " + "; ".join(extra) if extra else "")
        )
    return lines
