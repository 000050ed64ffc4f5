"""`kg-tools bench gateway-soak` for 20 s (issue 30): two gateways with overlapping configs on the test Neo4j,
real upstreams, b restarted with and without `memory` (which a still serves): no tool lost, no error."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import wipe
from tests.integration.test_gateway import mcp_servers  # noqa: F401 - the session fixture installing the real servers
from tests.support.cli_process import kg_tools_env

pytestmark = pytest.mark.integration


def test_two_gateways_lose_no_tool(settings, graph, mcp_servers, tmp_path):  # noqa: F811
    wipe(graph)
    out = tmp_path / "soak.json"
    args = ["bench", "gateway-soak", "--duration", "20", "--check-every", "5", "--restart-every", "6"]
    run = subprocess.run(
        [sys.executable, "-m", "kg_tools.cli", *args, "--resync", "5", "--json", str(out)],
        env=kg_tools_env(settings),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(out.read_text())
    assert [r["config"] for r in result["restarts_of_b"]][:1] == ["b-lite"]
    for label, gateway in result["gateways"].items():
        assert gateway["lost_tools"] == [], label
        assert gateway["errors"] == 0, gateway["error_samples"]
        assert gateway["search"] > 0 and gateway["call"] > 0 and gateway["checks"] >= 2
    # a serves memory throughout, b dropped it in its second config: a still lists all 9 memory tools
    assert len(result["gateways"]["a"]["started_with"]["a"]["memory"]) == 9
    assert "memory" not in result["gateways"]["b"]["started_with"]["b-lite"]
    assert out.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
