"""`kg-tools bench scale`: a synthetic catalog of N tools (benchmarks.bench.synthetic) loaded through
the normal loader under a catalog of its own, then POST /v1/retrieve at that size (sequential and
16 clients, the queries through the real embedder), then the catalog is removed again: the graph
is left as it was found (other catalogs untouched)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np

from benchmarks.bench import synthetic
from benchmarks.bench.retrieve import Client, api_server, concurrent, percentile, sequential, server_split
from kg_tools.catalog_store import delete_catalog
from kg_tools.cypher import query
from kg_tools.errors import CatalogNotFoundError, KgToolsError
from kg_tools.ingest import load_catalog

CATALOG = "bench-scale"
KEYS = (
    "tools",
    "edges",
    "load_s",
    "embed_s",
    "write_s",
    "p50_ms",
    "p95_ms",
    "rps_16",
    "errors",
    "rss_mb",
    "neo4j_store_mb",
)


class WordVectorEmbedder:
    """--fake-embeddings: a tool's vector is the normalised sum of the real model's vectors of its
    words plus Gaussian noise (the vocabulary, a few hundred words, is embedded once). Queries
    made of the same words find the right region of the graph, which random vectors would not
    (every seed would then come from other catalogs); the HNSW index is as large as with real
    embeddings. Same name and dimension as the real embedder (the vector index accepts them)."""

    backend = "fake (word vectors)"

    def __init__(self, embedder, seed: int = 0, noise: float = 0.35):
        self.real = embedder
        self.name = embedder.name
        self.dimension = embedder.dimension
        self.rng = np.random.default_rng(seed)
        self.noise = noise
        self.words: dict[str, np.ndarray] = {}

    def embed(self, texts: list[str], show_progress: bool = False, use_cache: bool = True) -> np.ndarray:
        tokenised = [re.findall(r"[a-z]+", t.lower()) for t in texts]
        missing = sorted({w for words in tokenised for w in words} - set(self.words))
        if missing:
            self.words.update(zip(missing, self.real.embed(missing, use_cache=False)))
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, words in enumerate(tokenised):
            v = sum((self.words[w] for w in words), np.zeros(self.dimension, dtype=np.float32))
            v = v / max(float(np.linalg.norm(v)), 1e-9)
            noise = self.rng.normal(size=self.dimension).astype(np.float32)
            v = v + self.noise * noise / np.linalg.norm(noise)
            out[i] = v / np.linalg.norm(v)
        return out


def _process_tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (uvicorn workers), in MB."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return round(total / 1024, 1)


def neo4j_store_mb(settings) -> float | None:
    """Size of the database's store files on disk (local server only; None for a remote Neo4j)."""
    directory = Path(settings.neo4j_home) / "data" / "databases" / settings.neo4j_database
    if (
        not directory.is_dir()
        or "127.0.0.1" not in (settings.neo4j_uri or "")
        and "localhost" not in (settings.neo4j_uri or "")
    ):
        return None
    return round(sum(f.stat().st_size for f in directory.rglob("*") if f.is_file()) / 2**20, 1)


def run(
    settings,
    graph,
    embedder,
    n: int,
    fake_embeddings: bool,
    requests: int = 300,
    concurrent_requests: int = 600,
    clients: int = 16,
    seed: int = 0,
    log=print,
) -> dict:
    state = graph.read(query("tool_names"), catalog=CATALOG)[0]
    if state["in_catalog"]:
        raise KgToolsError(
            f"catalog {CATALOG!r} already has {state['in_catalog']} tools (a run that was killed?); "
            f"remove them first: kg-tools catalogs delete {CATALOG}"
        )
    t0 = time.perf_counter()
    tools = synthetic.generate(n, seed, frozenset(state["names"]))
    log(
        f"generated {len(tools)} tools ({sum(t['func_type'] == 'core' for t in tools)} core) in "
        f"{time.perf_counter() - t0:.1f}s; loading into catalog {CATALOG!r}"
        + (" with fake embeddings (word vectors + noise, not the model's)" if fake_embeddings else "")
    )
    load_embedder = WordVectorEmbedder(embedder, seed) if fake_embeddings else embedder
    try:
        t0 = time.perf_counter()
        loaded = load_catalog(
            graph,
            load_embedder,
            tools,
            CATALOG,
            batch_size=settings.write_batch_size,
            log=lambda *_: None,
            show_progress=not fake_embeddings,
        )
        load_s = time.perf_counter() - t0
        log(
            f"loaded {loaded.tools} tools, {loaded.edges} edges in {load_s:.1f}s "
            f"(embedding {loaded.embed_seconds:.1f}s, write {loaded.write_seconds:.1f}s)"
        )
        store_mb = neo4j_store_mb(settings)
        texts = synthetic.queries(tools, requests + concurrent_requests, seed + 1)
        body = {"catalog": CATALOG}
        info: dict = {}
        with api_server(settings, log, info=info) as url:
            with Client(url) as client:
                for i in range(20):
                    client.post("/v1/retrieve", {**body, "query": f"warm-up request number {i}"})
                latencies, timing, names, errors = sequential(client, texts[:requests], body)
            rps, loaded_latencies, loaded_errors = concurrent(url, texts[requests:], clients, body)
            rss_mb = _process_tree_rss_mb(info["pid"])
    finally:
        t0 = time.perf_counter()
        try:
            delete_catalog(graph, CATALOG)
            log(f"removed catalog {CATALOG!r} again in {time.perf_counter() - t0:.1f}s")
        except CatalogNotFoundError:  # the load failed before writing anything
            pass
    found = [x for x in names if x]
    return {
        "tools": loaded.tools,
        "edges": loaded.edges,
        "load_s": round(load_s, 1),
        "embed_s": round(loaded.embed_seconds, 1),
        "write_s": round(loaded.write_seconds, 1),
        "p50_ms": round(percentile(latencies, 50), 2),
        "p95_ms": round(percentile(latencies, 95), 2),
        "rps_16": round(rps, 1),
        "p95_ms_under_16": round(percentile(loaded_latencies, 95), 2),
        "errors": errors + loaded_errors,
        "rss_mb": rss_mb,
        "neo4j_store_mb": store_mb,
        "fake_embeddings": fake_embeddings,
        "requests": requests,
        "concurrent_requests": concurrent_requests,
        "clients": clients,
        "mean_tools_returned": round(sum(map(len, found)) / max(1, len(found)), 2),
        **server_split(timing),
    }


def table(result: dict) -> str:
    goals = {"p95_ms": 60.0, "errors": 0}
    lines = [f"{'measure':<18}{'value':>12}  goal"]
    for key in KEYS + (
        "p95_ms_under_16",
        "mean_tools_returned",
        "server_embed_p95_ms",
        "server_cypher_p95_ms",
        "server_order_p95_ms",
        "server_total_p95_ms",
    ):
        mark = ""
        if key in goals and result.get(key) is not None:
            mark = f"<= {goals[key]:g}  " + ("met" if result[key] <= goals[key] else "MISSED")
        lines.append(f"{key:<18}{result.get(key)!s:>12}  {mark}".rstrip())
    lines.append(
        f"({result['requests']} sequential requests, {result['concurrent_requests']} under "
        f"{result['clients']} clients"
        + ("; tool embeddings FAKE: word vectors + noise" if result["fake_embeddings"] else "")
        + ")"
    )
    return "\n".join(lines)
