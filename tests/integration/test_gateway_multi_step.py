"""Issue 29 "Done when": through `kg-tools gateway` with real upstreams (the npm filesystem and memory
servers, PyPI mcp-server-git, mcp-server-time and mcp-server-fetch), search_tools lists
the tools a write intent and a multi-step request need in its top 5: "remember that Alice works at Acme"
-> memory's `create_entities`; "read the README and save a summary to notes.txt" -> the filesystem's read
tool and `write_file` (the file writer the step "save ... to notes.txt" implies, attached by the
`utilities` stage after the gateway's sync marked it :Core)."""

from __future__ import annotations

import json
import subprocess
import sys

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from kg_tools import PROJECT_ROOT
from tests.conftest import wipe
from tests.integration.test_gateway import PY_SERVERS, mcp_servers, payload  # noqa: F401 - mcp_servers: a fixture
from tests.support.cli_process import kg_tools_env

pytestmark = pytest.mark.integration

REMEMBER = "remember that Alice works at Acme"
READ_AND_SAVE = "read the README and save a summary to notes.txt"
READ_TOOLS = {"filesystem__read_text_file", "filesystem__read_file", "filesystem__read_multiple_files"}


@pytest.fixture(scope="module")
def repository(tmp_path_factory):
    root = tmp_path_factory.mktemp("repo")
    (root / "README.md").write_text("# Demo\n\nA project the agent summarises.\n")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


@pytest.fixture(scope="module")
def gateway_env(settings, graph, mcp_servers, repository, tmp_path_factory):  # noqa: F811
    wipe(graph)
    servers = {
        "filesystem": {"command": "node", "args": [str(mcp_servers["filesystem"]), str(repository)]},
        "memory": {
            "command": "node",
            "args": [str(mcp_servers["memory"])],
            "env": {"MEMORY_FILE_PATH": str(repository.parent / "memory.jsonl")},
        },
        "git": {"command": str(PY_SERVERS / "mcp-server-git"), "args": ["--repository", str(repository)]},
        "time": {"command": str(mcp_servers["time"]), "args": ["--local-timezone", "Etc/UTC"]},
    }
    servers["fetch"] = {"command": str(PY_SERVERS / "mcp-server-fetch")}
    # an agent that may write files and memories (destructive tools are hidden unless a profile allows them)
    profile = {"allow": ["*"], "allow_destructive": ["filesystem__write_file", "memory__create_*"]}
    policy = {"start_timeout": 60, "call_timeout": 20, "default_profile": "agent", "profiles": {"agent": profile}}
    config = {"mcpServers": servers, "kg-tools": policy}
    path = tmp_path_factory.mktemp("gw") / "gateway.json"
    path.write_text(json.dumps(config))
    return path, kg_tools_env(settings), set(servers)


def test_search_tools_lists_the_write_and_the_implied_tools_in_its_top_5(gateway_env, graph):
    path, env, servers = gateway_env
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "kg_tools.cli", "gateway", "--config", str(path)],
        env=env,
        cwd=str(PROJECT_ROOT),
    )
    found: dict[str, list[str]] = {}

    async def run():
        with anyio.fail_after(900):  # start-up syncs every server: slow on a loaded machine
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                for text in (REMEMBER, READ_AND_SAVE):
                    result = payload(await session.call_tool("search_tools", {"query": text, "rank_servers": True}))
                    found[text] = [t["name"] for t in result["tools"]]
                    found[f"{text} servers"] = [s["name"] for s in result["servers"] if s["available"]]

    anyio.run(run)
    core = {r["name"]: r["kind"] for r in graph.read("MATCH (t:Core) RETURN t.name AS name, t.core_kind AS kind")}
    print(found, core)
    # the sync marked the utilities :Core (kg-tools core detect)
    assert core["filesystem__write_file"] == "file_write" and core["memory__create_entities"] == "memory_write"
    assert set(found[f"{REMEMBER} servers"]) == servers  # every upstream synced and searched
    assert "memory__create_entities" in found[REMEMBER][:5], found[REMEMBER]
    top5 = found[READ_AND_SAVE][:5]
    assert READ_TOOLS & set(top5) and "filesystem__write_file" in top5, found[READ_AND_SAVE]
