"""`kg-tools bench gateway-soak` (issue 30): two `kg-tools gateway` processes with overlapping configs on
one Neo4j, driven over streamable HTTP by the MCP SDK's client for a while. Gateway A fronts filesystem,
memory and time, gateway B memory, time and git (real npm/PyPI servers, tests/support's pins). B is
restarted every `restart_every` seconds, every other time with a config without `memory` (same gateway
name: it lets go of a server A still serves). Every `check_every` seconds each gateway must still list
(search_tools with `server`), fetch (get_tool) and call (one safe tool per server) every tool it started
with; a tool missing is *lost*."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from benchmarks.bench.retrieve import percentile
from benchmarks.eval.report import pyplot
from kg_tools import PROJECT_ROOT
from kg_tools.errors import KgToolsError
from kg_tools.neo4j_server import LocalNeo4j
from kg_tools.processes import free_port

NPM = PROJECT_ROOT / ".npm-servers" / "node_modules" / "@modelcontextprotocol"
PY_SERVERS = PROJECT_ROOT / ".mcp-servers" / "bin"
QUERIES = [
    "read the contents of a text file",
    "what time is it in Tokyo",
    "convert 9am in New York to Berlin time",
    "remember that Alice works at Acme",
    "search the knowledge graph for a person",
    "list the files in a directory",
    "show the working tree status of the repository",
    "show the commit history",
    "find files matching a pattern",
    "add an observation to an entity",
]


def safe_calls(work: Path) -> dict[str, list[tuple[str, dict]]]:
    """Per server, the tools the soak calls (read-only, or writing only inside `work`)."""
    return {
        "filesystem": [("read_text_file", {"path": str(work / "project" / "README.md")})],
        "memory": [
            ("read_graph", {}),
            ("create_entities", {"entities": [{"name": "soak", "entityType": "test", "observations": ["x"]}]}),
        ],
        "time": [("get_current_time", {"timezone": "Etc/UTC"})],
        "git": [("git_status", {"repo_path": str(work / "project")})],
    }


def configs(work: Path, name: str) -> dict[str, dict]:
    """The three configs (A; B; B without memory, the same gateway name as B), each with its own token."""

    def memory(owner):
        return {"command": "node", "args": [str(NPM / "server-memory" / "dist" / "index.js")]} | {
            "env": {"MEMORY_FILE_PATH": str(work / f"memory-{owner}.jsonl")}
        }

    fs = {"command": "node", "args": [str(NPM / "server-filesystem" / "dist" / "index.js"), str(work / "project")]}
    clock = {"command": str(PY_SERVERS / "mcp-server-time"), "args": ["--local-timezone", "Etc/UTC"]}
    git = {"command": str(PY_SERVERS / "mcp-server-git"), "args": ["--repository", str(work / "project")]}

    def block(gateway, token):
        profile = {"token": token, "allow_destructive": ["*"]}
        return {"name": f"{name}-{gateway}", "call_timeout": 60, "start_timeout": 60, "profiles": {"soak": profile}}

    token_a, token_b = secrets.token_hex(16), secrets.token_hex(16)
    return {
        "a": {"mcpServers": {"filesystem": fs, "memory": memory("a"), "time": clock}, "kg-tools": block("a", token_a)},
        "b": {"mcpServers": {"memory": memory("b"), "time": clock, "git": git}, "kg-tools": block("b", token_b)},
        "b-lite": {"mcpServers": {"time": clock, "git": git}, "kg-tools": block("b", token_b)},
    }


def rss_mb(pid: int) -> float:
    """Resident memory of one process (psutil when installed, else /proc), in MB."""
    try:
        import psutil  # noqa: PLC0415 - optional: /proc without it

        return round(psutil.Process(pid).memory_info().rss / 2**20, 1)
    except ImportError:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


@dataclass
class Gateway:
    """One `kg-tools gateway --transport http` subprocess and what the soak measured of it."""

    label: str
    work: Path
    env: dict
    resync: float
    config: str = ""
    port: int = 0
    proc: subprocess.Popen | None = None
    token: str = ""
    started_with: dict[str, dict[str, set[str]]] = field(default_factory=dict)  # config -> server -> tools
    search_ms: list[float] = field(default_factory=list)
    rss: list[tuple[float, float]] = field(default_factory=list)  # (seconds, MB)
    counts: dict[str, int] = field(default_factory=lambda: {"search": 0, "get": 0, "call": 0, "checks": 0})
    errors: list[str] = field(default_factory=list)
    lost: set[str] = field(default_factory=set)
    lock: anyio.Lock = field(default_factory=anyio.Lock)

    @property
    def pid(self) -> int:
        assert self.proc is not None, "not started"
        return self.proc.pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def start(self, config: str, document: dict) -> None:
        self.config, self.port = config, free_port()
        self.token = document["kg-tools"]["profiles"]["soak"]["token"]
        path = self.work / f"gateway-{config}.json"
        path.write_text(json.dumps(document, indent=2))
        args = ["gateway", "--config", str(path), "--transport", "http", "--port", str(self.port)]
        with open(self.work / f"gateway-{self.label}.log", "a") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "kg_tools.cli", *args, "--resync", str(self.resync)],
                env=self.env,
                cwd=str(self.work),
                stdout=subprocess.DEVNULL,
                stderr=log,
            )

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def error(self, what: str, exc: BaseException) -> None:
        while isinstance(exc, BaseExceptionGroup) and exc.exceptions:  # the SDK's task groups wrap the cause
            exc = exc.exceptions[0]
        self.errors.append(f"{time.strftime('%H:%M:%S')} {what}: {type(exc).__name__}: {exc}"[:400])


@asynccontextmanager
async def session(gateway: Gateway):
    """A fresh MCP session with the gateway, over streamable HTTP with its bearer token."""
    client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {gateway.token}"}, timeout=120)
    async with (
        client,
        streamable_http_client(gateway.url, http_client=client) as (read, write),
        ClientSession(read, write) as s,
    ):
        await s.initialize()
        yield s


def answer(result) -> dict:
    """A successful result's JSON (search_tools and get_tool answer JSON; an upstream's text is wrapped)."""
    if result.is_error:
        raise KgToolsError(result.content[0].text if result.content else "isError")
    return result.structured_content or {"content": result.content}


async def listed(s: ClientSession, servers) -> dict[str, set[str]]:
    """Per server, the tools search_tools lists when asked for that server's (k at its maximum)."""
    found = {}
    for server in servers:
        tools = answer(await s.call_tool("search_tools", {"query": server, "server": server, "k": 50, "K": 128}))
        found[server] = {t["name"] for t in tools["tools"] if t["server"] == server}
    return found


async def wait_ready(gateway: Gateway, servers, timeout: float = 300) -> dict[str, set[str]]:
    """Until the gateway answers and lists tools of every server; what it lists then."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        if gateway.proc is not None and gateway.proc.poll() is not None:
            raise KgToolsError(f"gateway {gateway.label} exited ({gateway.proc.returncode}); see its log")
        try:
            async with session(gateway) as s:
                found = await listed(s, servers)
            if all(found.values()):
                return found
        except Exception as exc:  # noqa: BLE001 - not up yet: try again until the deadline
            last = exc
        await anyio.sleep(1)
    raise KgToolsError(f"gateway {gateway.label} not ready within {timeout:.0f}s: {last}")


async def check(gateway: Gateway, calls) -> None:
    """Every tool the gateway started with is still listed, fetched and its servers called."""
    expected = gateway.started_with[gateway.config]
    gateway.counts["checks"] += 1
    try:
        async with session(gateway) as s:
            found = await listed(s, expected)
            for server, tools in expected.items():
                gateway.lost |= tools - found[server]
                for name in tools:
                    if (await s.call_tool("get_tool", {"name": name})).is_error:
                        gateway.lost.add(name)
                for tool, arguments in calls[server]:
                    answer(await s.call_tool("call_tool", {"name": f"{server}__{tool}", "arguments": arguments}))
    except Exception as exc:  # noqa: BLE001 - counted and reported, the soak goes on
        gateway.error("check", exc)


async def round_trip(gateway: Gateway, calls, i: int) -> None:
    """One client's visit: search_tools, get_tool of a tool found, call_tool of a safe tool."""
    servers = sorted(gateway.started_with[gateway.config])
    server = servers[i % len(servers)]
    tool, arguments = calls[server][i % len(calls[server])]
    try:
        async with session(gateway) as s:
            t0 = time.perf_counter()
            found = answer(await s.call_tool("search_tools", {"query": QUERIES[i % len(QUERIES)]}))
            gateway.search_ms.append((time.perf_counter() - t0) * 1000)
            gateway.counts["search"] += 1
            if found["tools"]:
                answer(await s.call_tool("get_tool", {"name": found["tools"][0]["name"]}))
                gateway.counts["get"] += 1
            answer(await s.call_tool("call_tool", {"name": f"{server}__{tool}", "arguments": arguments}))
            gateway.counts["call"] += 1
    except Exception as exc:  # noqa: BLE001 - counted and reported, the soak goes on
        gateway.error("round", exc)


async def start(gateway: Gateway, config: str, documents: dict) -> None:
    gateway.start(config, documents[config])
    found = await wait_ready(gateway, documents[config]["mcpServers"])
    gateway.started_with.setdefault(config, found)


async def soak(a: Gateway, b: Gateway, documents, duration, check_every, restart_every, pause, log) -> list[dict]:
    """Both gateways driven at once; b restarted and both checked on their own schedules. A gateway's lock
    keeps a visit, a check and a restart from overlapping (the clients of b wait while it restarts)."""
    calls, restarts = safe_calls(a.work), []
    await start(a, "a", documents)
    await start(b, "b", documents)
    t0 = time.monotonic()
    until = t0 + duration

    async def drive(gateway: Gateway) -> None:
        i = 0
        while time.monotonic() < until:
            async with gateway.lock:
                await round_trip(gateway, calls, i)
            i += 1
            await anyio.sleep(pause)

    async def check_both() -> None:
        for gateway in (a, b):
            async with gateway.lock:
                await check(gateway, calls)
                gateway.rss.append((round(time.monotonic() - t0, 1), rss_mb(gateway.pid)))
        log(f"{time.monotonic() - t0:7.0f}s: " + "; ".join(f"{g.label}: {summary(g)}" for g in (a, b)))

    async def checker() -> None:
        while time.monotonic() + check_every < until:
            await anyio.sleep(check_every)
            await check_both()

    async def restarter() -> None:
        while time.monotonic() + restart_every < until:
            await anyio.sleep(restart_every)
            config = "b-lite" if b.config == "b" else "b"
            async with b.lock:
                await anyio.to_thread.run_sync(b.stop)
                await start(b, config, documents)
            restarts.append({"at_s": round(time.monotonic() - t0, 1), "config": config})
            log(f"{time.monotonic() - t0:7.0f}s: restarted gateway b with config {config}")
            await check_both()  # a kept every tool while b let go of memory (or took it back)

    async with anyio.create_task_group() as tg:
        tg.start_soon(drive, a)
        tg.start_soon(drive, b)
        tg.start_soon(checker)
        tg.start_soon(restarter)
    await check_both()  # the final check
    return restarts


def summary(g: Gateway) -> str:
    return f"{g.counts['search']} searches, {len(g.errors)} errors, {len(g.lost)} lost, {g.rss[-1][1]} MB"


@contextmanager
def neo4j(settings, work: Path, log):
    """The settings' Neo4j when NEO4J_URI is set in the environment, else one of its own in `work`."""
    if os.environ.get("NEO4J_URI"):
        yield settings.neo4j_uri, settings.neo4j_user, settings.neo4j_password
        return
    server = LocalNeo4j(
        home=work / "neo4j",
        bolt_port=free_port(),
        http_port=free_port(),
        heap="1g",
        pagecache="128m",
        password="soak-" + secrets.token_hex(8),
        lib_dir=LocalNeo4j.from_settings(settings).lib,
    )
    server.install(log=log)
    server.start(log=log)
    try:
        yield server.bolt_uri, "neo4j", server.resolved_password()
    finally:
        server.stop(log=log)


def prepare(work: Path) -> None:
    """The project the filesystem and git servers see: a README in a one-commit git repository."""
    project = work / "project"
    project.mkdir(parents=True, exist_ok=True)
    (project / "README.md").write_text("# Soak project\n\nThe gateways read this file.\n")
    git = ["git", "-c", "user.name=soak", "-c", "user.email=soak@example.invalid"]
    subprocess.run([*git, "init", "-q", str(project)], check=True)
    subprocess.run([*git, "-C", str(project), "add", "README.md"], check=True)
    subprocess.run([*git, "-C", str(project), "commit", "-q", "-m", "soak"], check=True)


def run(settings, duration: float, check_every: float, restart_every: float, resync: float, pause: float, log) -> dict:
    """The soak; its result (per gateway: RSS, search_tools p50/p95, counts, errors, lost tools)."""
    subprocess.run([str(PROJECT_ROOT / "scripts" / "setup-mcp-servers")], check=True, timeout=900)
    with tempfile.TemporaryDirectory(prefix="kg-tools-soak-") as tmp:
        work = Path(tmp)
        prepare(work)
        with neo4j(settings, work, log) as (uri, user, password):
            env = os.environ | {"NEO4J_URI": uri, "NEO4J_USER": user, "NEO4J_PASSWORD": password}
            env |= {"PYTHONPATH": str(PROJECT_ROOT)}
            a, b = Gateway("a", work, env, resync), Gateway("b", work, env, resync)
            documents = configs(work, "soak")
            log(
                f"Neo4j {uri}; gateways a ({', '.join(documents['a']['mcpServers'])}) and b ({', '.join(documents['b']['mcpServers'])})"
            )
            t0 = time.monotonic()
            try:
                restarts = anyio.run(soak, a, b, documents, duration, check_every, restart_every, pause, log)
            finally:
                a.stop()
                b.stop()
                logs = {g.label: (work / f"gateway-{g.label}.log").read_text(errors="replace")[-3000:] for g in (a, b)}
            return result(a, b, restarts, time.monotonic() - t0, logs)


def result(a: Gateway, b: Gateway, restarts: list[dict], seconds: float, logs: dict) -> dict:
    def one(g: Gateway) -> dict:
        mb = [m for _, m in g.rss]
        return {
            "started_with": {c: {s: sorted(t) for s, t in found.items()} for c, found in g.started_with.items()},
            "tools": {c: sum(map(len, found.values())) for c, found in g.started_with.items()},
            **g.counts,
            "search_p50_ms": round(percentile(g.search_ms, 50), 1) if g.search_ms else None,
            "search_p95_ms": round(percentile(g.search_ms, 95), 1) if g.search_ms else None,
            "rss_mb_first": mb[0] if mb else None,
            "rss_mb_last": mb[-1] if mb else None,
            "rss_mb_max": max(mb) if mb else None,
            "errors": len(g.errors),
            "error_samples": g.errors[:20],
            "lost_tools": sorted(g.lost),
            "_rss": g.rss,
            "_search_ms": g.search_ms,
            "log_tail": logs[g.label] if g.errors or g.lost else "",
        }

    return {"seconds": round(seconds, 1), "restarts_of_b": restarts, "gateways": {"a": one(a), "b": one(b)}}


def table(res: dict) -> str:
    rows = [
        f"{'gateway':<9}{'tools':>8}{'searches':>10}{'gets':>7}{'calls':>7}{'checks':>8}{'p50 ms':>8}{'p95 ms':>8}"
        f"{'RSS MB first/last/max':>24}{'errors':>8}{'lost':>6}"
    ]
    for label, g in res["gateways"].items():
        tools = "/".join(str(n) for n in g["tools"].values())
        rss = f"{g['rss_mb_first']}/{g['rss_mb_last']}/{g['rss_mb_max']}"
        rows.append(
            f"{label:<9}{tools:>8}{g['search']:>10}{g['get']:>7}{g['call']:>7}{g['checks']:>8}"
            f"{g['search_p50_ms']!s:>8}{g['search_p95_ms']!s:>8}{rss:>24}{g['errors']:>8}{len(g['lost_tools']):>6}"
        )
    rows.append(f"{res['seconds']:.0f} s, {len(res['restarts_of_b'])} restarts of b (every other one without memory)")
    return "\n".join(rows)


def plot(res: dict, path: Path) -> None:
    plt = pyplot()
    if plt is None:
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for label, g in res["gateways"].items():
        left.plot([t / 60 for t, _ in g["_rss"]], [m for _, m in g["_rss"]], marker=".", label=f"gateway {label}")
        right.plot(range(len(g["_search_ms"])), g["_search_ms"], lw=0.6, label=f"gateway {label}")
    for r in res["restarts_of_b"]:
        left.axvline(r["at_s"] / 60, color="grey", lw=0.5, ls=":")
    left.set_xlabel("minutes")
    left.set_ylabel("gateway RSS (MB)")
    left.set_title("RSS (dotted: restarts of b)")
    right.set_yscale("log")
    right.set_xlabel("search_tools call")
    right.set_ylabel("latency (ms, log)")
    right.set_title("search_tools latency")
    left.legend(fontsize=8)
    right.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
