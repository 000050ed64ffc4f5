"""Issue 30, problems 9 and 12: what `kg-tools gateway` says when it cannot start (Neo4j down, a wrong
password, the port in use), to the terminal in one `error:` line and to a stdio MCP client (the SDK's) in
the same words; `--profile` over HTTP; the `.env` beside the config; the no-policy default."""

from __future__ import annotations

import json
import socket
import subprocess
import sys

import anyio
import httpx2
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from kg_tools import PROJECT_ROOT
from kg_tools.processes import free_port, port_open
from tests.support.cli_process import kg_tools_env

# Some of these tests need no Neo4j; the file runs with the integration tests (tests/conftest.py places files by marker).
pytestmark = pytest.mark.integration

HOSTILE = str(PROJECT_ROOT / "tests" / "support" / "hostile_upstream.py")


def write_config(tmp_path, **block) -> str:
    config: dict = {"mcpServers": {"hostile": {"command": sys.executable, "args": [HOSTILE, "stdio"]}}}
    if block:
        config["kg-tools"] = block
    path = tmp_path / "cfg" / "gateway.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(config))
    return str(path)


def gateway(*args, env: dict, cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kg_tools.cli", "gateway", *args],
        env=env,
        cwd=str(cwd),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )


def bare_env(**extra) -> dict:
    return {"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin", "HOME": "/tmp"} | extra


def assert_one_error_line(result, *fragments) -> str:
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    assert "Traceback" not in result.stderr and "ExceptionGroup" not in result.stderr, result.stderr
    for fragment in fragments:
        assert fragment in errors[0], errors[0]
    return errors[0]


def test_neo4j_down_is_one_line_and_the_stdio_client_gets_the_same_text(tmp_path):

    uri = f"bolt://127.0.0.1:{free_port()}"
    path = write_config(tmp_path)
    result = gateway("--config", path, env=bare_env(NEO4J_URI=uri, NEO4J_PASSWORD="x"), cwd=tmp_path)
    assert result.returncode == 1
    line = assert_one_error_line(result, f"Neo4j is not reachable at {uri}", "kg-tools neo4j start")
    seen: dict = {}

    async def client():
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "kg_tools.cli", "gateway", "--config", path],
            env=bare_env(NEO4J_URI=uri, NEO4J_PASSWORD="x"),
        )
        with anyio.fail_after(120), (tmp_path / "client-stderr").open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                seen["init"] = await session.initialize()
                seen["call"] = await session.call_tool("search_tools", {"query": "anything"})

    anyio.run(client)
    said = line.removeprefix("error: ")
    assert said in seen["init"].instructions  # not "Connection closed"
    assert seen["call"].is_error and said in seen["call"].content[0].text


def test_an_http_client_gets_the_start_up_error_text(tmp_path):
    """Over HTTP the gateway that could not start answers clients holding a token with the one line (not a
    refused connection), a client without one gets 401 (then it exits: server.START_ERROR_SECONDS)."""
    token = "t" * 20
    uri = f"bolt://127.0.0.1:{free_port()}"
    path = write_config(tmp_path, profiles={"agent": {"token": token}})
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "kg_tools.cli", "gateway", "--config", path, "--transport", "http", "--port", str(port)],
        env=bare_env(NEO4J_URI=uri, NEO4J_PASSWORD="x"),
        cwd=str(tmp_path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: dict = {}

    async def client():
        with anyio.fail_after(120):
            while not port_open(port):
                assert process.poll() is None, process.communicate()
                await anyio.sleep(0.2)
            url = f"http://127.0.0.1:{port}/mcp"
            async with httpx2.AsyncClient() as bare:
                seen["tokenless"] = (await bare.post(url, json={})).status_code
            authorized = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
            async with (
                authorized,
                streamable_http_client(url, http_client=authorized) as (read, write),
                ClientSession(read, write) as session,
            ):
                seen["init"] = await session.initialize()
                seen["call"] = await session.call_tool("search_tools", {"query": "anything"})

    try:
        anyio.run(client)
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=60)
    said = f"Neo4j is not reachable at {uri}"
    assert seen["tokenless"] == 401
    assert said in seen["init"].instructions
    assert seen["call"].is_error and said in seen["call"].content[0].text
    assert f"could not start: {said}" in stderr and f"answering MCP clients on 127.0.0.1:{port}" in stderr, stderr
    assert "Traceback" not in stderr, stderr


def test_port_in_use_is_one_line_before_any_upstream_starts(tmp_path):
    token = "t" * 20
    path = write_config(tmp_path, profiles={"agent": {"token": token}})
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        result = gateway(
            "--config",
            path,
            "--transport",
            "http",
            "--port",
            str(port),
            env=bare_env(NEO4J_URI=f"bolt://127.0.0.1:{free_port()}", NEO4J_PASSWORD="x"),
            cwd=tmp_path,
        )
    assert result.returncode == 1
    assert_one_error_line(result, f"cannot listen on 127.0.0.1:{port}", "--port")


def test_profile_over_http_is_a_usage_error(tmp_path):
    path = write_config(tmp_path, profiles={"agent": {"token": "t" * 20}})
    result = gateway("--config", path, "--transport", "http", "--profile", "agent", env=bare_env(), cwd=tmp_path)
    assert result.returncode == 2
    assert_one_error_line(result, "--profile applies to stdio only")


def test_the_env_file_beside_the_config_is_used_wherever_the_gateway_starts(tmp_path):
    uri = f"bolt://127.0.0.1:{free_port()}"
    path = write_config(tmp_path)
    (tmp_path / "cfg" / ".env").write_text(f"NEO4J_URI={uri}\nNEO4J_PASSWORD=x\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = gateway("--config", path, env=bare_env(), cwd=elsewhere)
    assert result.returncode == 1
    assert_one_error_line(result, f"Neo4j is not reachable at {uri}")
    assert f"Neo4j {uri} (user neo4j; settings from {tmp_path / 'cfg' / '.env'}" in result.stderr


@pytest.mark.integration
def test_a_wrong_password_is_one_line(settings, tmp_path):
    path = write_config(tmp_path)
    env = kg_tools_env(settings, NEO4J_PASSWORD="not-the-password")
    result = gateway("--config", path, env=env, cwd=tmp_path)
    assert result.returncode == 1
    assert_one_error_line(result, "rejected user", "NEO4J_PASSWORD")


@pytest.mark.integration
def test_without_a_policy_the_default_is_said_at_start_and_in_the_denial(settings, graph, tmp_path):

    path = write_config(tmp_path)
    seen: dict = {}

    async def client():
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "kg_tools.cli", "gateway", "--config", path],
            env=kg_tools_env(settings),
        )
        with anyio.fail_after(300), (tmp_path / "stderr").open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                seen["denied"] = await session.call_tool("call_tool", {"name": "hostile__crash", "arguments": {}})

    anyio.run(client)
    log = (tmp_path / "stderr").read_text()
    assert "destructive tools are hidden; add a profile to allow them" in log
    text = seen["denied"].content[0].text
    assert seen["denied"].is_error and "profiles.(none)" not in text and "the default policy" in text
