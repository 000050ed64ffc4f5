"""The benchmark harness is its own distribution (issue 32 item 4): the runtime never imports it, `kg-tools eval`
and `kg-tools bench` come from its entry points, and without it they end with one line naming what to install
(the fresh runtime venv of tests/integration/test_wheel.py runs that path for real)."""

from __future__ import annotations

import re
import subprocess
import sys

import click
from click.testing import CliRunner

from kg_tools import PROJECT_ROOT
from kg_tools.cli import HARNESS_COMMANDS, _harness_placeholder, cli


def test_no_runtime_module_imports_the_harness():
    importing = re.compile(r"^\s*(from|import)\s+benchmarks\b", re.MULTILINE)
    offenders = [
        str(path.relative_to(PROJECT_ROOT))
        for top in ("kg_tools", "api", "loaders")
        for path in (PROJECT_ROOT / top).rglob("*.py")
        if importing.search(path.read_text())
    ]
    assert offenders == []


def test_serving_loads_no_harness_module():
    """What `kg-tools up|serve|mcp|gateway` import (their commands resolved as the CLI resolves them, the
    API app, the MCP server, the gateway) leaves no benchmarks module in sys.modules."""
    code = (
        "import sys\n"
        "from kg_tools.cli import cli\n"
        "import click\n"
        "ctx = click.Context(cli)\n"
        "for name in ('up', 'serve', 'mcp', 'gateway', 'load', 'retrieve'):\n"
        "    assert cli.get_command(ctx, name) is not None, name\n"
        "import kg_tools.api.app, kg_tools.mcp_server, kg_tools.gateway.server\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'benchmarks'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "[]"


def test_the_harness_commands_come_from_its_entry_points():
    """scripts/test installs kg-tools-benchmarks: the real groups, with every subcommand of the CLI contract."""
    for name, subcommands in (
        ("eval", {"toollinkos", "toolsandbox", "supplied-parameters", "catalog", "seal-tools", "deps"}),
        ("bench", {"ingest", "retrieve", "scale"}),
    ):
        shown = CliRunner().invoke(cli, [name, "--help"])
        assert shown.exit_code == 0, shown.output
        assert subcommands <= set(cli.commands[name].commands)  # type: ignore[attr-defined]
    assert set(HARNESS_COMMANDS) <= set(cli.list_commands(click.Context(cli)))


def test_without_the_harness_its_commands_say_what_to_install():
    group = click.Group()
    group.add_command(_harness_placeholder("eval", HARNESS_COMMANDS["eval"], "which is not installed"))
    for args in (["eval"], ["eval", "--help"], ["eval", "toollinkos", "--limit", "3"]):
        done = CliRunner().invoke(group, args)
        assert done.exit_code == 2
        assert "install kg-tools-benchmarks (scripts/test does" in done.output
        assert done.exception is None or isinstance(done.exception, SystemExit)
