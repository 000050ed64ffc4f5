"""A short schemathesis run in the suite: the README's command (`schemathesis run .../openapi.json
--checks all`, with the repo's schemathesis.toml) against the API served by uvicorn on a free port
over the real Neo4j, once with the API key and once without. Every check of schemathesis runs; the
test fails on any failure or error it reports. Bounded by `--max-examples` to well under a minute on
the shared 2-core machine (the long run of >= 20,000 requests: docs/testing.md)."""

from __future__ import annotations

import re
import secrets
import subprocess
import sys

import httpx
import pytest

from kg_tools import PROJECT_ROOT
from kg_tools.api.app import create_app
from tests.support import synthetic_catalog as syn
from tests.support.http_server import serve_in_thread

pytestmark = pytest.mark.integration

KEY = "fuzz-" + secrets.token_hex(8)
MAX_EXAMPLES = 3  # per operation and phase; the coverage phase adds its own boundary cases


@pytest.fixture(scope="module")
def served(settings, graph, embedder):
    """The API with KG_TOOLS_API_KEY set, on the synthetic catalog, behind a real HTTP server."""

    syn.load(graph, embedder)
    with serve_in_thread(
        create_app(settings.model_copy(update={"api_key": KEY}), graph=graph, embedder=embedder)
    ) as url:
        yield url


def schemathesis(url: str, *args: str) -> tuple[int, str]:
    cmd = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(PROJECT_ROOT / "schemathesis.toml"),
        "--no-color",
        "run",
        f"{url}/openapi.json",
        "--checks",
        "all",
        "--max-examples",
        str(MAX_EXAMPLES),
        "--workers",
        "1",
        "--seed",
        "8",
        *args,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=PROJECT_ROOT / "out")
    return proc.returncode, proc.stdout + proc.stderr


@pytest.fixture(scope="module", autouse=True)
def _out_dir():
    (PROJECT_ROOT / "out").mkdir(exist_ok=True)  # schemathesis keeps its cache in its working directory


@pytest.mark.parametrize("with_key", [True, False], ids=["with-key", "without-key"])
def test_schemathesis_checks_all_finds_nothing(served, with_key):
    args = ["--header", f"Authorization: Bearer {KEY}"] if with_key else []
    code, output = schemathesis(served, *args)
    summary = re.search(r"Test cases:\s*\n\s*(\d+) generated, (.*)", output)
    phases = re.findall(r"(Examples|Coverage|Fuzzing|Stateful) \(in ([\d.]+s)\)", output)
    print(
        " | ".join(f"{phase} {seconds}" for phase, seconds in phases), "|", summary and summary.group(0).split("\n")[-1]
    )
    assert summary, output[-3000:]
    assert int(summary.group(1)) >= 300, summary.group(0)  # every operation was really exercised
    assert "fail" not in summary.group(2) and "error" not in summary.group(2), output[-6000:]
    assert code == 0, output[-6000:]

    operations = sum(len(ops) for ops in httpx.get(f"{served}/openapi.json").json()["paths"].values())
    assert f"Selected: {operations}/{operations}" in output and f"Tested: {operations}" in output, output[-3000:]
