"""Issue 30 (problems 6, 10, 11, 12) without Neo4j or an upstream: bounded argument checks, dependencies
that go with their seed, down servers, the no-policy denial, the line reader and the result cut."""

from __future__ import annotations

import subprocess
import sys
import time
from types import SimpleNamespace

import anyio
import pytest
from mcp_types import CallToolResult, TextContent, Tool

from kg_tools import PROJECT_ROOT
from kg_tools.errors import InvalidArgumentsError, PolicyDeniedError, UpstreamCallError
from kg_tools.gateway import limits, validation
from kg_tools.gateway import service as gw
from kg_tools.gateway import upstream as up
from kg_tools.gateway.config import Profile, UpstreamConfig
from kg_tools.gateway.limits import cut_result
from kg_tools.gateway.policy import OPEN_PROFILE
from kg_tools.gateway.results import GatewaySearch, ServerRank
from kg_tools.gateway.transport import LineSplitter, Oversized, oversized_id
from kg_tools.gateway.upstream import Upstream
from kg_tools.processes import free_port, port_open
from tests.support.upstream_run import run_upstream as run_support
from tests.unit.kg_tools.gateway.test_service import AGENT, FakeService, dependency, gateway, seed

CATASTROPHIC = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}


def call(g, name, arguments, profile=AGENT):
    async def run():
        return await g.call(profile, name, arguments)

    return anyio.run(run)


# -- problem 6: argument validation -----------------------------------------------------------
def test_a_catastrophic_pattern_runs_in_linear_time():
    g = gateway()
    g.routes["fs__grep"] = gw.Route("fs", "grep", CATASTROPHIC, {"readOnlyHint": True})
    t0 = time.perf_counter()
    with pytest.raises(InvalidArgumentsError, match=r"s: 'a+b' does not match"):
        call(g, "fs__grep", {"s": "a" * 29 + "b"})  # Python's re: ~17 s; RE2: microseconds
    assert time.perf_counter() - t0 < 5
    many = gw.Route("fs", "grep", CATASTROPHIC | {"additionalProperties": False}, None)
    t0 = time.perf_counter()
    assert gw.schema_problems(many, {"s": "a" * 100_000}) == []
    assert time.perf_counter() - t0 < 5


def test_a_pattern_re2_cannot_run_is_not_checked_by_the_gateway():
    route = gw.Route("fs", "x", {"type": "object", "properties": {"s": {"pattern": r"^(a)\1$"}}}, None)
    assert gw.schema_problems(route, {"s": "ab"}) == []  # a back-reference: left to the upstream
    route = gw.Route("fs", "x", {"type": "object", "properties": {"s": {"pattern": r"^\d+$"}}}, None)
    assert gw.schema_problems(route, {"s": "12x"}) == ["s: '12x' does not match '^\\\\d+$'"]


def test_a_huge_argument_is_refused_within_the_budget_off_the_event_loop():
    schema = {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}}}}
    validator = validation.build_validator(schema)
    arguments = {"items": ["x" * 3] * 1_000_000}
    ticks = []

    async def run():
        async def ticker():
            while True:
                ticks.append(time.perf_counter())
                await anyio.sleep(0.05)

        async with anyio.create_task_group() as tg:
            tg.start_soon(ticker)
            t0 = time.perf_counter()
            with pytest.raises(validation.BudgetExceeded):
                await validation.check_off_loop(validator, arguments, budget=0.2)
            tg.cancel_scope.cancel()
            return time.perf_counter() - t0

    elapsed = anyio.run(run)
    assert elapsed < 5
    assert len(ticks) >= 2  # the event loop kept running while the check ran
    g = gateway()
    g.routes["fs__bulk"] = gw.Route("fs", "bulk", schema, {"readOnlyHint": True})
    old = validation.VALIDATION_SECONDS
    try:
        validation.VALIDATION_SECONDS = 0.2
        with pytest.raises(InvalidArgumentsError, match="could not be checked .* within the gateway's time budget"):
            anyio.run(lambda: g.call(AGENT, "fs__bulk", arguments))
    finally:
        validation.VALIDATION_SECONDS = old


# -- problem 10: orphan dependencies ----------------------------------------------------------
def test_seeds_cut_back_to_k_take_their_dependencies_with_them():
    tools = [
        seed("fs__read_text"),
        dependency("fs__list_dirs", "fs__read_text"),
        seed("fs__read_media"),
        dependency("fs__list_allowed", "fs__read_media"),
        dependency("fs__list_dirs", "fs__read_media"),
        seed("fs__write"),
    ]
    hits = gw.first_seeds(tools, 1)
    assert [t["name"] for t in hits] == ["fs__read_text", "fs__list_dirs"]
    shared = [seed("a"), seed("b"), {**dependency("c", "b"), "via": [{"from": "b"}, {"from": "a"}]}]
    (_, kept_c) = gw.first_seeds(shared, 1)
    assert kept_c["name"] == "c" and kept_c["via"] == [{"from": "a"}]  # `why` names a tool of the answer
    assert gw.why(kept_c) == "needed by a"
    # through the widening search: one hidden seed widens the query, the extra seed is cut with its dependency
    service = FakeService(
        [seed("fs__old_read"), seed("fs__read"), seed("fs__list"), dependency("mem__write", "fs__list")]
    )
    found = gateway(service).search(AGENT, "read", 1, 10, None, "compact", None)
    assert [t.name for t in found.tools] == ["fs__read"]


# -- problems 11 and 12: down servers, the default policy -------------------------------------
def test_a_down_server_is_not_offered_and_shows_its_state_and_error():
    service = FakeService([seed("fs__read"), seed("mem__write")])
    g = gateway(service, agent={"allow_destructive": ["*"]})
    profile = ("agent", Profile(allow_destructive=["*"]))
    g.upstreams["mem"].fail("connection lost: the process exited")
    found = g.search(profile, "write", 3, 10, None, "compact", None)
    assert [t.name for t in found.tools] == ["fs__read"]
    with pytest.raises(UpstreamCallError, match=r"upstream 'mem': down \(connection lost: the process exited\)"):
        call(g, "mem__write", {}, profile)
    assert g.get(profile, "mem__write").available is False and g.get(profile, "fs__read").available is True
    status = {s["server"]: s for s in g.status()}
    assert status["mem"]["state"] == "down" and status["mem"]["error"] == "connection lost: the process exited"
    assert status["mem"]["available"] is False and status["mem"]["tools"] == 1


def test_without_a_profile_a_destructive_tool_is_denied_by_the_default_policy_not_by_profiles_none():
    g = gateway()
    with pytest.raises(PolicyDeniedError) as denied:
        g.check(OPEN_PROFILE, Profile(), "mem__write")
    message = str(denied.value)
    assert "profiles.(none)" not in message
    assert "the default policy" in message and "allow_destructive" in message


# -- problem 5: the line reader and the result cut --------------------------------------------
def test_the_line_reader_is_linear_and_drops_an_oversized_line_naming_its_request():
    splitter = LineSplitter(max_bytes=1000)
    head = b'{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"'
    out = splitter.feed(b'{"a":1}\n' + head + b"x" * 5000)
    assert out == [b'{"a":1}']
    out = splitter.feed(b"x" * 5000 + b'"}]}}\n{"b":2}\n')
    assert isinstance(out[0], Oversized) and out[0].size > 10_000 and out[1] == b'{"b":2}'
    assert oversized_id(out[0].head, out[0].tail) == 7
    assert oversized_id(b'{"result":{"x":"', b'yyy"},"jsonrpc":"2.0","id":"abc"}') == "abc"  # the TS SDK's order
    assert oversized_id(b'{"x":"', b'"}') is None
    big = LineSplitter(max_bytes=300 * 1024 * 1024)
    t0 = time.perf_counter()
    chunk = b"y" * 65536
    for _ in range(1600):  # 100 MB in 64 KiB chunks: linear (the SDK's reader: ~78 s)
        assert big.feed(chunk) == []
    assert big.feed(b"\n") == [b"y" * (65536 * 1600)]
    assert time.perf_counter() - t0 < 10


def test_a_result_over_the_limit_is_cut_with_a_note():

    small = CallToolResult(content=[TextContent(type="text", text="ok")])
    assert cut_result(small, 1000) is small
    big = CallToolResult(
        content=[TextContent(type="text", text="a" * 5000), TextContent(type="text", text="b" * 5000)],
        structured_content={"data": "c" * 5000},
    )
    cut = cut_result(big, 2000)
    assert len(cut.model_dump_json(by_alias=True, exclude_none=True)) <= 2000
    assert cut.content[0].text.startswith("aaa") and cut.structured_content is None
    assert "over the limit of 2,000" in cut.content[-1].text and "structuredContent left out" in cut.content[-1].text


# -- a real upstream process, no Neo4j: coalesced list_changed, a restart after a crash ----------
def run_upstream(args: list[str], body) -> list:
    """An Upstream on `python args...` whose syncs are only counted; `body(upstream)` runs once it is ready."""
    return run_support(UpstreamConfig(command=sys.executable, args=args), body)


def test_a_burst_of_list_changed_is_one_listing():

    async def body(upstream):
        async with anyio.create_task_group() as tg:
            for i in range(5):
                tg.start_soon(upstream.call, "add_tool", {"name": f"t{i}", "description": "added"}, 30)
        await anyio.sleep(3 * 0.5 + 1)  # COALESCE_SECONDS and a listing

    syncs = run_upstream([str(PROJECT_ROOT / "tests" / "support" / "gateway_upstream.py")], body)
    assert {f"t{i}" for i in range(5)} <= set(syncs[-1])
    assert len(syncs) <= 3  # the start, then one (at most two) listings for five notifications


def test_a_crashed_stdio_upstream_is_started_again():

    async def body(upstream):
        with pytest.raises(UpstreamCallError, match="upstream 'up'"):
            await upstream.call("crash", {}, 30)
        assert upstream.state == "down" and upstream.error and not upstream.available
        await anyio.sleep(0.3)  # the run loop has seen the end of its connection
        with pytest.raises(UpstreamCallError, match=r"upstream 'up': down \(connection lost.*\); starting it again in"):
            await upstream.call("echo", {"text": "x"}, 30)
        while upstream.state != "ready":
            await anyio.sleep(0.1)
        result = await upstream.call("echo", {"text": "back"}, 30)
        assert "back" in result.content[0].text and upstream.restarts == 1 and upstream.error

    syncs = run_upstream([str(PROJECT_ROOT / "tests" / "support" / "hostile_upstream.py"), "stdio"], body)
    assert len(syncs) == 2  # synced again after the restart


def test_an_http_upstream_that_goes_away_is_down_and_back_when_it_returns(monkeypatch):

    monkeypatch.setattr(up, "PING_SECONDS", 0.5)
    port = free_port()
    command = [sys.executable, str(PROJECT_ROOT / "tests" / "support" / "gateway_upstream.py"), "--http", str(port)]

    def start() -> subprocess.Popen:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while not port_open(port) and time.monotonic() < deadline:
            time.sleep(0.1)
        return proc

    async def on_tools(upstream):
        pass

    server = start()
    seen: dict = {}

    async def run():
        nonlocal server
        upstream = up.Upstream(
            "web", UpstreamConfig(url=f"http://127.0.0.1:{port}/mcp"), start_timeout=5, on_tools=on_tools
        )
        with anyio.fail_after(120):
            async with anyio.create_task_group() as tg:
                tg.start_soon(upstream.run)
                await upstream.started.wait()
                assert upstream.state == "ready", upstream.error
                server.kill()
                server.wait()
                while upstream.state != "down":
                    await anyio.sleep(0.1)
                seen["error"] = upstream.error
                server = start()
                while upstream.state != "ready":
                    await anyio.sleep(0.1)
                seen["echo"] = await upstream.call("echo", {"text": "back"}, 30)
                seen["restarts"] = upstream.restarts
                tg.cancel_scope.cancel()

    try:
        anyio.run(run)
    finally:
        server.kill()
    assert seen["error"] and seen["restarts"] >= 1
    assert "back" in seen["echo"].content[0].text


def test_tools_list_pages_and_totals_are_capped():

    tool = Tool(name="t", input_schema={"type": "object"})

    class Pages:
        def __init__(self, per_page: int, pages: int | None):
            self.per_page, self.pages, self.served = per_page, pages, 0

        async def list_tools(self, params=None):
            self.served += 1
            more = self.pages is None or self.served < self.pages
            return SimpleNamespace(tools=[tool] * self.per_page, next_cursor=f"c{self.served}" if more else None)

    async def on_tools(upstream):
        pass

    def refresh(session) -> str:
        upstream = Upstream("up", UpstreamConfig(command="x"), start_timeout=1, on_tools=on_tools)
        upstream.session = session
        try:
            anyio.run(upstream.refresh)
        except ValueError as exc:
            return str(exc)
        return f"{len(upstream.tools)} tools"

    assert refresh(Pages(limits.MAX_TOOLS_PER_PAGE, 3)) == f"{3 * limits.MAX_TOOLS_PER_PAGE} tools"
    assert "in one page" in refresh(Pages(limits.MAX_TOOLS_PER_PAGE + 1, 1))
    assert f"more than {limits.MAX_TOOLS:,} tools" in refresh(Pages(limits.MAX_TOOLS_PER_PAGE, 11))
    assert f"within {limits.MAX_TOOL_PAGES} pages" in refresh(Pages(1, None))


def test_the_cap_of_an_answer_without_tools_leaves_it_as_it_is():

    servers = [ServerRank(name=f"s{i}", title="x" * 100, version="1", score=0.5, tools=1) for i in range(20)]
    result = GatewaySearch(tools=[], servers=servers)
    assert gw.cap(result, max_tokens=50) is result
