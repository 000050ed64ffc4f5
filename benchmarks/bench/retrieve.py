"""`kg-tools bench retrieve`: latency of POST /v1/retrieve on loopback vs embedding alone vs an
in-process GRTF over the same data, throughput with 16 concurrent clients, error count."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import numpy as np

from benchmarks.bench.inprocess import InProcessGRTF
from benchmarks.eval.report import latency_cdf, pyplot
from kg_tools.embeddings import embedder_from_settings
from kg_tools.errors import KgToolsError
from kg_tools.processes import free_port


def percentile(values: list[float], p: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=float), p)) if values else float("nan")


def server_split(timing: list[dict]) -> dict:
    """Where the sequential requests' time went, from their `timing_ms` (p50 / p95, ms): the query
    embedding, the Cypher (the search+expand stage minus the embedding it does), the ordering, the
    pipeline total. None when no request succeeded."""
    parts = {
        "embed": [t.get("embed", 0.0) for t in timing],
        "cypher": [t.get("search+expand", 0.0) - t.get("embed", 0.0) for t in timing],
        "order": [t.get("order", 0.0) for t in timing],
        "total": [t.get("total", 0.0) for t in timing],
    }
    return {
        f"server_{name}_{p}_ms": round(percentile(values, q), 2) if values else None
        for name, values in parts.items()
        for p, q in (("p50", 50), ("p95", 95))
    }


@contextmanager
def api_server(settings, log, timeout: float = 180.0, info: dict | None = None):
    """`kg-tools serve` on a free loopback port as a subprocess; stopped (by its pid) afterwards.
    `info` (optional) receives the server's pid."""
    port = free_port()
    log_path = Path(settings.neo4j_home) / "logs" / "bench-api.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "NEO4J_URI": settings.neo4j_uri}
    with open(log_path, "wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from kg_tools.cli import main; main()",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    url = f"http://127.0.0.1:{port}"
    if info is not None:
        info["pid"] = proc.pid
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise KgToolsError(
                    f"`kg-tools serve` exited with code {proc.returncode}:\n"
                    + log_path.read_text(errors="replace")[-2000:]
                )
            try:
                if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise KgToolsError(f"the API did not become ready within {timeout:.0f}s; see {log_path}")
            time.sleep(0.3)
        log(f"started `kg-tools serve` (pid {proc.pid}) at {url}")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Client:
    """One keep-alive HTTP/1.1 connection on the standard library (http.client): POST JSON, read the
    body. The bench measures the server, so its client should cost little: httpx spent ~0.7 ms more
    per request than this (same server, same requests, measured on a busy 2-core machine), time
    that was counted as the endpoint's, and under 16 client threads its CPU competed with the server."""

    def __init__(self, url: str, timeout: float = 60.0):
        parts = urlsplit(url)
        self.https = parts.scheme == "https"
        if not parts.hostname:
            raise ValueError(f"not an http(s) URL with a host: {url!r}")
        self.host: str = parts.hostname
        self.port = parts.port or (443 if self.https else 80)
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None

    def post(self, path: str, body: dict) -> tuple[int, bytes]:
        """(status, body); a connection the server closed while idle is reopened once."""
        payload = json.dumps(body).encode()
        for attempt in (0, 1):
            try:
                if self.conn is None:
                    cls = http.client.HTTPSConnection if self.https else http.client.HTTPConnection
                    self.conn = cls(self.host, self.port, timeout=self.timeout)
                self.conn.request("POST", path, payload, {"Content-Type": "application/json"})
                response = self.conn.getresponse()
                return response.status, response.read()
            except (http.client.HTTPException, OSError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def sequential(client: Client, queries: list[str], extra: dict | None = None):
    latencies: list[float] = []
    server_timing: list = []
    names: list[list[str] | None] = []
    errors = 0
    for q in queries:
        t0 = time.perf_counter()
        try:
            status, data = client.post("/v1/retrieve", {**(extra or {}), "query": q})
            ok = status == 200
        except (http.client.HTTPException, OSError):
            ok = False
        latencies.append((time.perf_counter() - t0) * 1000)
        if not ok:
            errors += 1
            names.append(None)
            continue
        body = json.loads(data)
        server_timing.append(body["timing_ms"])
        names.append([t["name"] for t in body["tools"]])
    return latencies, server_timing, names, errors


def concurrent(url: str, queries: list[str], clients: int, extra: dict | None = None):
    """`clients` threads, each with its own keep-alive connection, share one queue of requests."""
    lock = threading.Lock()
    todo = list(reversed(queries))
    latencies: list[float] = []
    errors = [0]

    def worker():
        with Client(url) as client:
            while True:
                with lock:
                    if not todo:
                        return
                    q = todo.pop()
                t0 = time.perf_counter()
                try:
                    ok = client.post("/v1/retrieve", {**(extra or {}), "query": q})[0] == 200
                except (http.client.HTTPException, OSError):
                    ok = False
                with lock:
                    latencies.append((time.perf_counter() - t0) * 1000)
                    errors[0] += 0 if ok else 1

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    return len(queries) / wall, latencies, errors[0]


def run(
    settings,
    graph,
    embedder,
    queries: list[str],
    url: str | None,
    n: int,
    concurrent_requests: int,
    clients: int = 16,
    log=print,
) -> dict:
    load_before = round(os.getloadavg()[0], 2)

    if len(queries) < n + concurrent_requests:
        raise KgToolsError(f"need {n + concurrent_requests} distinct queries, the dataset has {len(queries)}")
    timed, loaded = queries[:n], queries[n : n + concurrent_requests]  # every text is sent once (no cache hits)

    # In-process baseline first (the server is idle): embedding alone and the full numpy GRTF.

    embedder = embedder_from_settings(settings, settings.embed_threads)  # the server's threads: a fair comparison
    grtf = InProcessGRTF.from_graph(graph)
    for i in range(10):
        embedder.embed([f"warm-up text {i}"], use_cache=False, query=True)
    embed_ms, inproc_ms, inproc_graph_ms, inproc_names = [], [], [], []
    for q in timed:
        t0 = time.perf_counter()
        vector = embedder.embed([q], use_cache=False, query=True)[0]
        t1 = time.perf_counter()
        inproc_names.append(grtf.retrieve(vector))
        t2 = time.perf_counter()
        embed_ms.append((t1 - t0) * 1000)
        inproc_graph_ms.append((t2 - t1) * 1000)
        inproc_ms.append((t2 - t0) * 1000)

    def against(server_url: str) -> dict:
        with Client(server_url) as client:
            for i in range(20):
                client.post("/v1/retrieve", {"query": f"warm-up request number {i}"})
            latencies, timing, names, errors = sequential(client, timed)
        rps, loaded_latencies, loaded_errors = concurrent(server_url, loaded, clients)
        same = sum(1 for a, b in zip(names, inproc_names) if a == b)
        return {
            "latencies": latencies,
            "timing": timing,
            "errors": errors + loaded_errors,
            "rps": rps,
            "loaded_latencies": loaded_latencies,
            "same_ranking": same / len(timed),
        }

    if url:
        served = against(url.rstrip("/"))
    else:
        with api_server(settings, log) as started:
            served = against(started)

    p50 = percentile(served["latencies"], 50)
    result = {
        "url": url or "(started by the bench)",
        "requests": n,
        "concurrent_requests": concurrent_requests,
        "clients": clients,
        "embed_model": embedder.name,
        "embed_backend": embedder.backend,
        "embed_threads": settings.embed_threads,
        "embed_solo_threads": embedder.solo_threads,  # threads of a lone query
        "batch_window_ms": settings.embed_batch_window_ms,
        "cpus": os.cpu_count(),
        "load_average": load_before,  # 1-minute load average before the bench started
        "p50_ms": round(p50, 2),
        "p95_ms": round(percentile(served["latencies"], 95), 2),
        "p99_ms": round(percentile(served["latencies"], 99), 2),
        "embed_p50_ms": round(percentile(embed_ms, 50), 2),
        "inprocess_p50_ms": round(percentile(inproc_ms, 50), 2),
        "inprocess_graph_p50_ms": round(percentile(inproc_graph_ms, 50), 3),
        "overhead_beyond_embed_p50_ms": round(p50 - percentile(embed_ms, 50), 2),
        "ratio_to_inprocess": round(p50 / percentile(inproc_ms, 50), 2),
        **server_split(served["timing"]),
        # kept for readers of older JSON: the stage including its query embedding
        "server_search_expand_p50_ms": round(
            percentile([t.get("search+expand", 0.0) for t in served["timing"]], 50), 2
        ),
        "rps_16": round(served["rps"], 1),
        "p50_ms_under_16": round(percentile(served["loaded_latencies"], 50), 2),
        "p95_ms_under_16": round(percentile(served["loaded_latencies"], 95), 2),
        "errors": served["errors"],
        "same_ranking_as_inprocess": round(served["same_ranking"], 4),
        "_samples": {
            "endpoint": served["latencies"],
            "embed": embed_ms,
            "inprocess": inproc_ms,
            "under_16": served["loaded_latencies"],
        },
    }
    return result


TABLE = [
    ("p50_ms", "POST /v1/retrieve p50 (ms)"),
    ("p95_ms", "POST /v1/retrieve p95 (ms)"),
    ("embed_p50_ms", "query embedding alone p50 (ms)"),
    ("overhead_beyond_embed_p50_ms", "endpoint p50 - embedding p50 (ms)"),
    ("server_embed_p50_ms", "  server-side: embedding p50 (ms)"),
    ("server_cypher_p50_ms", "  server-side: Cypher (no embedding) p50 (ms)"),
    ("server_order_p50_ms", "  server-side: ordering p50 (ms)"),
    ("server_total_p50_ms", "  server-side: pipeline total p50 (ms)"),
    ("inprocess_p50_ms", "in-process GRTF (numpy) p50 (ms)"),
    ("inprocess_graph_p50_ms", "  of which search + expansion (ms)"),
    ("ratio_to_inprocess", "endpoint p50 / in-process p50"),
    ("rps_16", "throughput, 16 clients (req/s)"),
    ("p50_ms_under_16", "p50 under 16 clients (ms)"),
    ("p95_ms_under_16", "p95 under 16 clients (ms)"),
    ("errors", "errors"),
    ("same_ranking_as_inprocess", "same ranking as in-process"),
]
GOALS = {
    "p50_ms": ("<=", 15.0),
    "overhead_beyond_embed_p50_ms": ("<=", 3.0),
    "errors": ("<=", 0),
    "rps_16": (">=", 150.0),
    "p95_ms_under_16": ("<=", 150.0),
}


def table(result: dict) -> str:
    lines = [f"{'measure':<46}{'value':>10}  goal"]
    for key, label in TABLE:
        value = result.get(key)
        goal = GOALS.get(key)
        mark = ""
        if goal and value is not None:
            met = value <= goal[1] if goal[0] == "<=" else value >= goal[1]
            mark = f"{goal[0]} {goal[1]:g}  " + ("met" if met else "MISSED")
        lines.append(f"{label:<46}{value!s:>10}  {mark}".rstrip())
    lines.append(
        f"({result['requests']} sequential requests, {result['concurrent_requests']} under "
        f"{result['clients']} clients; {result['cpus']} CPUs; embedder {result['embed_backend']}, "
        f"{result['embed_threads']} thread(s), {result['embed_solo_threads']} for a lone query, batch window {result['batch_window_ms']:g} ms; load average "
        f"{result['load_average']})"
    )
    return "\n".join(lines)


def plot(result: dict, path: Path) -> None:
    plt = pyplot()
    if plt is None:
        return

    samples = result["_samples"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    labels = {
        "endpoint": "POST /v1/retrieve",
        "embed": "embedding alone",
        "inprocess": "in-process GRTF",
        "under_16": "endpoint, 16 clients",
    }
    latency_cdf(left, {label: samples[key] for key, label in labels.items()}, "Latency CDF")
    left.axvline(15, color="grey", ls="--", lw=0.8, label="goal p50 15 ms")
    left.legend(fontsize=8)
    bars = [
        ("embedding", result["embed_p50_ms"]),
        ("in-process\nGRTF", result["inprocess_p50_ms"]),
        ("endpoint", result["p50_ms"]),
    ]
    right.bar([b[0] for b in bars], [b[1] for b in bars], color=["#8da0cb", "#66c2a5", "#fc8d62"])
    for i, (_, v) in enumerate(bars):
        right.text(i, v, f"{v:.1f}", ha="center", va="bottom")
    right.set_ylabel("p50 (ms)")
    right.set_title(f"p50; 16 clients: {result['rps_16']} req/s, {result['errors']} errors")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
