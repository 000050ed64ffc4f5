"""Issue 30, problems 5, 6, 11 and 12: `kg-tools gateway --transport http` in front of hostile upstreams
(tests/support/hostile_upstream.py: an HTTP server whose answer never ends, a stdio server with a 200 MB result, a
catastrophic regex schema, a call that never ends, a crash) and the real PyPI mcp-server-time, driven by
the SDK's streamable HTTP client. Asserts behaviour and generous bounds, not timings."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import anyio
import pytest

from kg_tools import PROJECT_ROOT
from kg_tools.processes import free_port
from tests.conftest import wipe
from tests.integration.test_gateway import mcp_servers  # noqa: F401 - the session fixture installing the real servers
from tests.support.cli_process import kg_tools_env, wait_for_port
from tests.support.mcp_http import bearer_session

pytestmark = pytest.mark.integration

HOSTILE = str(PROJECT_ROOT / "tests" / "support" / "hostile_upstream.py")
TOKEN = "hostile-test-" + "t" * 20
GB = 1 << 30


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class PeakRss(threading.Thread):
    """The largest RSS of a process, sampled every 0.1 s."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0, True

    def run(self):
        while self.running:
            try:
                self.peak = max(self.peak, rss_bytes(self.pid))
            except OSError:
                return
            time.sleep(0.1)


def payload(result) -> dict:
    assert not result.is_error, result.content
    return result.structured_content or json.loads(result.content[0].text)


def refusal(result) -> str:
    assert result.is_error, result.content
    return result.content[0].text


def test_hostile_upstreams_are_bounded_and_never_stall_the_others(settings, graph, mcp_servers, tmp_path):  # noqa: F811

    wipe(graph)
    endless_port, port = free_port(), free_port()
    starts = tmp_path / "starts"
    config = {
        "mcpServers": {
            "hostile": {"command": sys.executable, "args": [HOSTILE, "stdio", "--starts", str(starts)]},
            "endless": {"url": f"http://127.0.0.1:{endless_port}/mcp"},
            "time": {"command": str(mcp_servers["time"]), "args": ["--local-timezone", "Etc/UTC"]},
        },
        "kg-tools": {
            "start_timeout": 60,
            "call_timeout": 60,
            "profiles": {"agent": {"token": TOKEN, "allow_destructive": ["*"]}},
        },
    }
    path = tmp_path / "gateway.json"
    path.write_text(json.dumps(config))
    env = kg_tools_env(settings)
    endless = subprocess.Popen([sys.executable, HOSTILE, "endless-http", str(endless_port)])
    stderr = (tmp_path / "stderr").open("w")
    gateway = subprocess.Popen(
        [sys.executable, "-m", "kg_tools.cli", "gateway", "--config", str(path), "--transport", "http"]
        + ["--port", str(port)],
        env=env,
        cwd=str(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=stderr,
    )
    peak = PeakRss(gateway.pid)
    peak.start()
    seen: dict = {}

    async def run():

        async with bearer_session(f"http://127.0.0.1:{port}/mcp", TOKEN) as session:
            await session.initialize()

            async def call(name, arguments):
                return await session.call_tool("call_tool", {"name": name, "arguments": arguments})

            seen["ranked"] = payload(
                await session.call_tool("search_tools", {"query": "current time", "rank_servers": True})
            )
            # one upstream stuck, one sending 200 MB: the other upstream and search_tools answer meanwhile
            async with anyio.create_task_group() as tg:
                done: dict = {}

                async def slow(name, arguments):
                    t0 = time.perf_counter()
                    done[name] = await call(name, arguments)
                    done[name + "_s"] = time.perf_counter() - t0

                tg.start_soon(slow, "hostile__stuck", {})
                tg.start_soon(slow, "hostile__huge", {"mb": 200})
                await anyio.sleep(0.1)  # both sent: the 200 MB are arriving
                seen["time"] = await call("time__get_current_time", {"timezone": "Etc/UTC"})
                seen["search"] = payload(await session.call_tool("search_tools", {"query": "what time is it"}))
                seen["search_s"] = []
                for _ in range(10):
                    t0 = time.perf_counter()
                    payload(await session.call_tool("search_tools", {"query": "convert a time between zones"}))
                    seen["search_s"].append(time.perf_counter() - t0)
                seen["stuck_pending"] = "hostile__stuck" not in done
                with anyio.fail_after(300):
                    while "hostile__huge" not in done:
                        await anyio.sleep(0.2)
                tg.cancel_scope.cancel()
            seen["huge"], seen["huge_s"] = done["hostile__huge"], done["hostile__huge_s"]
            seen["large"] = await call("hostile__large", {"kb": 3000})
            t0 = time.perf_counter()
            seen["grep"] = await call("hostile__grep", {"s": "a" * 29 + "b"})
            seen["grep_s"] = time.perf_counter() - t0
            # a crash: the call fails naming it, the server is started again and serves
            seen["crash"] = await call("hostile__crash", {})
            with anyio.fail_after(120):
                while True:
                    echo = await call("hostile__echo", {"text": "back"})
                    if not echo.is_error:
                        break
                    seen["while_down"] = refusal(echo)
                    await anyio.sleep(0.5)
            seen["echo"] = echo

    try:
        wait_for_port(port, gateway, "kg-tools gateway --transport http", timeout=300)
        anyio.run(run)
        # the status file follows the gateway's state within a second: read it until it shows the restart
        deadline = time.monotonic() + 60
        while True:
            status = subprocess.run(
                [sys.executable, "-m", "kg_tools.cli", "gateway", "status", "--config", str(path), "--json"],
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
            shown = json.loads(status.stdout)["servers"] if status.returncode == 0 else []
            if any(s["server"] == "hostile" and s["state"] == "ready" for s in shown) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
    finally:
        peak.running = False
        gateway.terminate()
        gateway.wait(30)
        endless.kill()
        stderr.close()
    log = (tmp_path / "stderr").read_text()
    searches = sorted(seen["search_s"])
    print(
        f"peak RSS {peak.peak / 2**20:.0f} MiB; 200 MB result refused in {seen['huge_s']:.1f} s; "
        f"search_tools meanwhile: p50 {searches[4] * 1000:.0f} ms, max {searches[-1] * 1000:.0f} ms"
    )
    assert searches[-1] < 10  # generous: the point is that nothing waits for the hostile upstreams
    # problem 5: bounded, never buffered; other upstreams and search_tools are not held up
    assert peak.peak < GB, f"gateway RSS peaked at {peak.peak / 2**20:.0f} MiB"
    servers = {s["name"]: s for s in seen["ranked"]["servers"]}
    assert servers["endless"]["state"] == "down" and servers["endless"]["available"] is False
    assert "larger than 33,554,432 bytes" in servers["endless"]["error"]
    assert servers["time"]["state"] == "ready" and servers["time"]["tools"] == 2
    assert payload(seen["time"])["timezone"] == "Etc/UTC"
    assert seen["search"]["tools"][0]["name"].startswith("time__")
    assert seen["stuck_pending"]
    assert "answer larger than 33,554,432 bytes" in refusal(seen["huge"])
    assert seen["huge_s"] < 120  # the SDK's reader: minutes
    large = seen["large"]
    assert not large.is_error and "over the limit of 1,048,576" in large.content[-1].text
    assert len(large.content[0].text) < 1_048_576
    # problem 6: a catastrophic pattern is run by RE2
    assert "invalid arguments for hostile__grep" in refusal(seen["grep"]) and seen["grep_s"] < 10
    # problem 11: a crashed upstream is started again; status names its state and last error
    assert "upstream 'hostile'" in refusal(seen["crash"])
    assert "back" in seen["echo"].content[0].text
    assert len(starts.read_text().splitlines()) >= 2
    assert status.returncode == 0, status.stderr
    health = {s["server"]: s for s in json.loads(status.stdout)["servers"]}
    assert health["hostile"]["state"] == "ready" and health["hostile"]["restarts"] >= 1
    assert health["hostile"]["error"]  # the last failure stays visible
    assert health["endless"]["state"] == "down" and "larger than" in health["endless"]["error"]
    assert "Traceback" not in log and "ExceptionGroup" not in log
