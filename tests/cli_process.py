"""`kg-tools` in a fresh interpreter, as a user runs it, its output captured."""

from __future__ import annotations

import subprocess
import sys

from kg_tools import PROJECT_ROOT
from kg_tools.processes import free_port
from kg_tools.settings import Settings


def kg_tools_process(*args: str, neo4j: Settings | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """`python -m kg_tools.cli ARGS` with a bare environment. Its Neo4j is the one of `neo4j`, else a
    free port where nothing listens (for what a command says before it needs Neo4j)."""
    env = {"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"}
    if neo4j is None:
        env |= {"NEO4J_URI": f"bolt://127.0.0.1:{free_port()}", "NEO4J_PASSWORD": "x"}
    else:
        env |= {"NEO4J_URI": neo4j.neo4j_uri, "NEO4J_USER": neo4j.neo4j_user, "NEO4J_PASSWORD": neo4j.neo4j_password}
    return subprocess.run(
        [sys.executable, "-m", "kg_tools.cli", *args], env=env, capture_output=True, text=True, timeout=timeout
    )
