"""`kg-tools gateway` with real upstreams: the npm filesystem and memory servers, PyPI mcp-server-time,
and tests/support/gateway_upstream.py (tools change at run time), driven by the SDK's client over stdio."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client

from kg_tools import PROJECT_ROOT
from kg_tools.processes import free_port
from tests.conftest import wipe
from tests.support.cli_process import kg_tools_env, wait_for_port

pytestmark = pytest.mark.integration

NPM = PROJECT_ROOT / ".npm-servers" / "node_modules"
PY_SERVERS = PROJECT_ROOT / ".mcp-servers" / "bin"
UPSTREAM = PROJECT_ROOT / "tests" / "support" / "gateway_upstream.py"
QUERY = "read the readme file in my project"


@pytest.fixture(scope="session")
def mcp_servers():
    """The real upstreams and the Inspector, installed by scripts/setup-mcp-servers (fast when present)."""
    subprocess.run([str(PROJECT_ROOT / "scripts" / "setup-mcp-servers")], check=True, timeout=900)
    return {
        "filesystem": NPM / "@modelcontextprotocol" / "server-filesystem" / "dist" / "index.js",
        "memory": NPM / "@modelcontextprotocol" / "server-memory" / "dist" / "index.js",
        "time": PY_SERVERS / "mcp-server-time",
        "inspector": NPM / ".bin" / "mcp-inspector",
    }


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    (root / "README.md").write_text("# Demo project\n\nThe gateway read this file.\n")
    return root


def gateway_config(mcp_servers, project, **extra) -> dict:
    servers = {
        "filesystem": {"command": "node", "args": [str(mcp_servers["filesystem"]), str(project)]},
        "memory": {
            "command": "node",
            "args": [str(mcp_servers["memory"])],
            "env": {"MEMORY_FILE_PATH": str(project / "memory.jsonl")},
        },
        "time": {"command": str(mcp_servers["time"]), "args": ["--local-timezone", "Etc/UTC"]},
        "dynamic": {
            "command": sys.executable,
            "args": [str(UPSTREAM)],
            "accept_changes": True,
        },  # tools added at run time
        "broken": {"command": str(project / "no-such-server")},
        "garbage": {
            "command": sys.executable,
            "args": ["-c", "import time; print('not json-rpc', flush=True); time.sleep(600)"],
        },
    }
    policy = {
        "start_timeout": 20,
        "call_timeout": 20,
        "default_profile": "agent",
        "profiles": {
            "agent": {
                "allow": ["*"],
                "deny": ["memory__delete_*"],
                "allow_destructive": ["memory__create_*", "dynamic__*"],
            }
        },
    }
    return {"mcpServers": servers, "kg-tools": policy} | extra


@pytest.fixture(scope="module")
def gateway_env(settings, graph, embedder, mcp_servers, project, tmp_path_factory):
    wipe(graph)
    path = tmp_path_factory.mktemp("gw") / "gateway.json"
    path.write_text(json.dumps(gateway_config(mcp_servers, project)))
    return path, kg_tools_env(settings)


def payload(result) -> dict:
    assert not result.is_error, result.content
    return result.structured_content or json.loads(result.content[0].text)


def refusal(result) -> str:
    """An `isError` result's message (the model can read it and correct its call)."""
    assert result.is_error, result.content
    return result.content[0].text


def test_gateway_syncs_searches_calls_and_survives(gateway_env, graph, project):
    path, env = gateway_env
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "kg_tools.cli", "gateway", "--config", str(path)],
        env=env,
        cwd=str(PROJECT_ROOT),
    )
    seen: dict = {}

    async def run():
        with anyio.fail_after(900):  # start-up syncs four servers: slow on a loaded machine
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                listed = (await session.list_tools()).tools
                seen["listed"] = sorted(t.name for t in listed)
                seen["output_schemas"] = {t.name: t.output_schema for t in listed}
                found = payload(await session.call_tool("search_tools", {"query": QUERY, "rank_servers": True}))
                seen["found"] = found
                t0 = time.perf_counter()
                seen["read"] = await session.call_tool(
                    "call_tool",
                    {"name": "filesystem__read_text_file", "arguments": {"path": str(project / "README.md")}},
                )
                seen["call_ms"] = (time.perf_counter() - t0) * 1000
                seen["time"] = await session.call_tool(
                    "call_tool", {"name": "time__get_current_time", "arguments": {"timezone": "Europe/Paris"}}
                )
                seen["denied"] = await session.call_tool(
                    "call_tool", {"name": "memory__delete_entities", "arguments": {"entityNames": ["x"]}}
                )
                seen["invalid"] = await session.call_tool(
                    "call_tool", {"name": "time__get_current_time", "arguments": {"tz": 1}}
                )
                seen["unknown"] = await session.call_tool("get_tool", {"name": "time__get_weather"})
                seen["unknown_server"] = await session.call_tool("search_tools", {"query": QUERY, "server": "git"})
                # a tool added upstream at run time is found after its list_changed
                payload(
                    await session.call_tool(
                        "call_tool",
                        {
                            "name": "dynamic__add_tool",
                            "arguments": {
                                "name": "translate_to_klingon",
                                "description": "Translate English text into Klingon.",
                            },
                        },
                    )
                )
                for _ in range(100):
                    found = payload(
                        await session.call_tool(
                            "search_tools", {"query": "translate text into klingon", "server": "dynamic"}
                        )
                    )
                    if found["tools"] and found["tools"][0]["name"] == "dynamic__translate_to_klingon":
                        break
                    await anyio.sleep(0.2)
                seen["added"] = found
                # an upstream killed mid-session: an error result naming it; the others keep working
                pid = payload(await session.call_tool("call_tool", {"name": "dynamic__pid", "arguments": {}}))
                os.kill(int(pid["result"]), signal.SIGKILL)
                await anyio.sleep(0.5)
                seen["dead"] = await session.call_tool(
                    "call_tool", {"name": "dynamic__echo", "arguments": {"text": "hi"}}
                )
                seen["after"] = await session.call_tool(
                    "call_tool", {"name": "time__get_current_time", "arguments": {"timezone": "Etc/UTC"}}
                )

    anyio.run(run)
    assert seen["listed"] == ["call_tool", "get_tool", "search_tools"]
    # typed results: search_tools and get_tool publish their output schemas; call_tool passes the upstream's through
    schemas = seen["output_schemas"]
    assert {"tools", "servers", "truncated"} <= set(schemas["search_tools"]["properties"])
    assert {"server", "upstream_name", "input_schema", "dependencies"} <= set(schemas["get_tool"]["properties"])
    assert schemas["call_tool"] is None
    tools = seen["found"]["tools"]
    # issue 21 "Done when": the tool that reads one text file comes first (not read_multiple_files, nor the
    # deprecated read_file, which is not offered)
    assert tools[0]["name"] == "filesystem__read_text_file", [t["name"] for t in tools]
    assert set(tools[0]) == {"name", "server", "description", "input_schema", "why"}
    assert seen["found"]["servers"][0]["name"] == "filesystem"
    servers = {s["name"]: s for s in seen["found"]["servers"]}
    assert {n for n, s in servers.items() if s["available"]} == {"filesystem", "memory", "time", "dynamic"}
    # issue 30, problem 11: servers that failed at start are listed (last), down, with their error
    assert [s["name"] for s in seen["found"]["servers"][-2:]] in (["broken", "garbage"], ["garbage", "broken"])
    assert servers["broken"]["state"] == "down" and "no-such-server" in servers["broken"]["error"]
    assert servers["garbage"]["state"] == "down" and servers["garbage"]["tools"] == 0
    provides = graph.read("MATCH (s:Server)-[:PROVIDES]->(t:Tool) RETURN s.name AS s, count(t) AS n")
    assert {r["s"]: r["n"] for r in provides}["filesystem"] == 14
    guide = (PROJECT_ROOT / "kg_tools" / "browser_guide" / "kg-tools.html").read_text()
    block = guide.split('id="kg-gateway-servers">')[1].split("</pre>")[0].replace("&gt;", ">")
    shown = {r["server"]: r["tools"] for r in graph.read(block)}
    assert shown["filesystem"] == 14 and shown["time"] == 2
    assert not any(t["name"].startswith(("broken__", "garbage__")) for t in tools)
    read = seen["read"]
    assert not read.is_error and "The gateway read this file." in read.content[0].text
    assert payload(seen["time"])["timezone"] == "Europe/Paris"
    # refusals and failures the model can act on are tool results with isError (kg_tools/mcp_errors.py)
    assert refusal(seen["denied"]).endswith(
        "denied: memory__delete_entities is not allowed by profiles.agent.deny 'memory__delete_*'"
    )
    assert "invalid arguments for time__get_current_time" in refusal(seen["invalid"])
    assert "timezone" in refusal(seen["invalid"])
    assert "unknown tool 'time__get_weather'" in refusal(seen["unknown"])
    assert "unknown server 'git'" in refusal(seen["unknown_server"])
    assert seen["added"]["tools"][0]["name"] == "dynamic__translate_to_klingon"
    assert "upstream 'dynamic'" in refusal(seen["dead"])
    assert payload(seen["after"])["timezone"] == "Etc/UTC"
    catalogs = {r["catalog"] for r in graph.read("MATCH (t:Tool) RETURN DISTINCT t.catalog AS catalog")}
    assert catalogs == {"filesystem", "memory", "time", "dynamic"}
    print(f"call_tool filesystem__read_text_file: {seen['call_ms']:.1f} ms")


def test_inspector_cli_lists_and_calls_the_gateway_over_http_with_tokens(
    settings, graph, mcp_servers, project, tmp_path
):
    """A third-party client (the MCP Inspector CLI) against `kg-tools gateway --transport http`: each
    profile has its own bearer token; without one nothing is searched or called."""

    config = gateway_config(mcp_servers, project)
    for name in ("broken", "garbage", "dynamic"):
        del config["mcpServers"][name]
    agent, reader = "agent-" + "a" * 20, "reader-" + "r" * 20
    config["kg-tools"]["profiles"]["agent"]["token"] = agent
    config["kg-tools"]["profiles"]["reader"] = {"read_only": True, "token_env": "GW_READER_TOKEN"}
    path = tmp_path / "gateway.json"
    path.write_text(json.dumps(config))
    env = kg_tools_env(settings, GW_READER_TOKEN=reader)
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kg_tools.cli",
            "gateway",
            "--config",
            str(path),
            "--transport",
            "http",
            "--port",
            str(port),
        ],
        env=env,
        cwd=str(PROJECT_ROOT),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def inspector(*args, token: str | None = agent) -> subprocess.CompletedProcess:
        header = ["--header", f"Authorization: Bearer {token}"] if token else []
        return subprocess.run(
            [str(mcp_servers["inspector"]), "--cli", f"http://127.0.0.1:{port}/mcp", *header, *args],
            capture_output=True,
            text=True,
            timeout=120,
        )

    try:
        wait_for_port(port, proc, "kg-tools gateway --transport http", timeout=300)
        listed = inspector("--method", "tools/list")
        assert listed.returncode == 0, listed.stderr
        assert sorted(t["name"] for t in json.loads(listed.stdout)["tools"]) == [
            "call_tool",
            "get_tool",
            "search_tools",
        ]
        found = inspector("--method", "tools/call", "--tool-name", "search_tools", "--tool-arg", f"query={QUERY}")
        assert found.returncode == 0, found.stderr
        names = [t["name"] for t in json.loads(found.stdout)["structuredContent"]["tools"]]
        assert names[0] == "filesystem__read_text_file", names
        t0 = time.perf_counter()
        read = inspector(
            "--method",
            "tools/call",
            "--tool-name",
            "call_tool",
            "--tool-arg",
            "name=filesystem__read_text_file",
            "--tool-arg",
            "arguments=" + json.dumps({"path": str(project / "README.md")}),
        )
        elapsed = time.perf_counter() - t0
        assert read.returncode == 0, read.stderr
        assert "The gateway read this file." in read.stdout
        print(f"Inspector CLI call_tool round trip (process start included): {elapsed:.2f} s")
        # no token: nothing searched, nothing called
        anonymous = inspector(
            "--method",
            "tools/call",
            "--tool-name",
            "call_tool",
            "--tool-arg",
            "name=time__get_current_time",
            "--tool-arg",
            'arguments={"timezone": "Etc/UTC"}',
            token=None,
        )
        # refused at initialize with HTTP 401 + WWW-Authenticate (kg_tools/http_guard.py): no session, no tool
        # result; the Inspector reads the 401 as "authorization required" (it would start OAuth on a TTY)
        refused = anonymous.stdout + anonymous.stderr
        assert "no valid bearer token" in refused or "401" in refused or "auth_required" in refused
        assert anonymous.returncode != 0 and "tool_is_error" not in anonymous.stderr, anonymous.stderr
        # the reader profile may not call a tool that writes; the agent profile may
        args = [
            "--method",
            "tools/call",
            "--tool-name",
            "call_tool",
            "--tool-arg",
            "name=memory__create_entities",
            "--tool-arg",
            "arguments="
            + json.dumps({"entities": [{"name": "kg", "entityType": "project", "observations": ["uses a gateway"]}]}),
        ]
        denied = inspector(*args, token=reader)
        assert "tool_is_error" in denied.stderr  # a tool result the model reads: isError with the rule
        assert json.loads(denied.stdout)["isError"] is True
        assert "profiles.reader.read_only" in json.loads(denied.stdout)["content"][0]["text"]
        assert not (project / "memory.jsonl").exists()  # not dispatched
        created = inspector(*args)
        assert created.returncode == 0, created.stderr
        assert "uses a gateway" in (project / "memory.jsonl").read_text()
    finally:
        proc.terminate()
        proc.wait(30)
