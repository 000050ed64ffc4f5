"""`kg-tools bench compare`: the default retrieval in-process against a peer in the same run:
neo4j-graphrag's `VectorCypherRetriever` (one vector search + one dependency traversal,
cypher/bench_peer_retrieval.cypher). Same embedder instance (wrapped as neo4j-graphrag's Embedder), same
graph, same queries, interleaved (the order alternates per query). Per request: wall time (perf_counter)
and this process's CPU (process_time: every thread, the embedder's included; Neo4j's own CPU is not
counted). mAP@10 of each on the same queries."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from benchmarks.bench.retrieve import percentile
from benchmarks.eval.datasets import EvalInstance
from benchmarks.eval.metrics import average_precision
from benchmarks.eval.report import latency_cdf, pyplot
from kg_tools.cypher import query
from kg_tools.retrieval.request import RetrievalRequest

K = 10
PEER_TOP_K = 3  # the peer's seeds, as the default's k


def peer_retriever(graph, embedder):
    """neo4j-graphrag 1.22's VectorCypherRetriever over our vector index, embedding with our embedder."""
    from neo4j_graphrag.embeddings.base import Embedder  # noqa: PLC0415 - only `bench compare` runs the peer
    from neo4j_graphrag.retrievers import VectorCypherRetriever  # noqa: PLC0415 - only `bench compare` runs the peer

    class Ours(Embedder):  # the same model and sessions; the encoder itself, so that no vector enters the
        # embedder's cache, where the default would find it (every query is embedded by each)
        def embed_query(self, text: str) -> list[float]:
            vectors = embedder.encoder.encode([embedder.query_prefix + text], embedder.batch_size, solo=True)
            return vectors[0].tolist()

    return VectorCypherRetriever(
        graph.driver,
        index_name="tool_embedding",
        retrieval_query=query("bench_peer_retrieval"),
        embedder=Ours(),
        neo4j_database=graph.database,
    )


def peer_names(retriever, text: str) -> list[str]:
    """Seed 1, its dependencies, seed 2, ... unique, cut to K."""
    names: list[str] = []
    for record in retriever.get_search_results(query_text=text, top_k=PEER_TOP_K).records:
        for name in [record["name"], *record["deps"]]:
            if name not in names:
                names.append(name)
    return names[:K]


@contextmanager
def background_load(on: bool):
    """A second process spinning one core while the block runs (stopped by its pid)."""
    if not on:
        yield None
        return
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield proc.pid
    finally:
        proc.terminate()
        proc.wait()


def _timed(call: Callable[[str], list[str]], text: str) -> tuple[list[str], float, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    names = call(text)
    return names, (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000


def run(pipeline, graph, embedder, instances: Sequence[EvalInstance], n: int, load: bool = False) -> dict:
    """Both retrievers over the first n instances, interleaved; the result dict (`_samples`: per request)."""
    retriever = peer_retriever(graph, embedder)
    systems: dict[str, Callable[[str], list[str]]] = {
        "kg-tools": lambda q: pipeline.retrieve(RetrievalRequest(query=q, K=K)).names,
        "neo4j-graphrag": lambda q: peer_names(retriever, q),
    }
    pipeline.warm_up()  # as `kg-tools serve` does before serving: the plan cached, the seed cache filled
    for i in range(10):  # warm-up: plans cached, sessions open, the model's first runs
        for call in systems.values():
            call(f"warm-up query number {i}")
    timed = list(instances[:n])
    samples: dict[str, dict[str, list[float]]] = {s: {"wall": [], "cpu": [], "ap": []} for s in systems}
    load_before = round(os.getloadavg()[0], 2)
    with background_load(load):
        for i, inst in enumerate(timed):
            order = list(systems) if i % 2 == 0 else list(reversed(systems))
            for name in order:
                names, wall, cpu = _timed(systems[name], inst.query)
                samples[name]["wall"].append(wall)
                samples[name]["cpu"].append(cpu)
                samples[name]["ap"].append(average_precision(names, inst.gold, K))
    rows = {
        name: {
            "p50_ms": round(percentile(s["wall"], 50), 2),
            "p95_ms": round(percentile(s["wall"], 95), 2),
            "cpu_ms_per_request": round(float(np.mean(s["cpu"])), 2),
            "mAP@10": round(float(np.mean(s["ap"])), 4),
        }
        for name, s in samples.items()
    }
    ours, peer = rows["kg-tools"], rows["neo4j-graphrag"]
    return {
        "requests": len(timed),
        "background_load": load,
        "load_average": load_before,  # 1-minute load average before the timed requests
        "cpus": os.cpu_count(),
        "embed_model": embedder.name,
        "embed_solo_threads": embedder.solo_threads,
        "rows": rows,
        "ratio_p50": round(ours["p50_ms"] / peer["p50_ms"], 3),
        "ratio_cpu": round(ours["cpu_ms_per_request"] / peer["cpu_ms_per_request"], 3),
        "_samples": {name: s["wall"] for name, s in samples.items()},
    }


def table(result: dict) -> str:
    lines = [f"{'retriever':<18}{'p50 ms':>9}{'p95 ms':>9}{'CPU ms/req':>12}{'mAP@10':>9}"]
    for name, r in result["rows"].items():
        lines.append(
            f"{name:<18}{r['p50_ms']:>9.2f}{r['p95_ms']:>9.2f}{r['cpu_ms_per_request']:>12.2f}{r['mAP@10']:>9.4f}"
        )
    lines.append(
        f"kg-tools / neo4j-graphrag: p50 {result['ratio_p50']:.2f}x (goal <= 1.1), CPU {result['ratio_cpu']:.2f}x"
    )
    lines.append(
        f"({result['requests']} requests each, interleaved; {result['cpus']} CPUs; "
        f"{'a second process spinning a core; ' if result['background_load'] else ''}"
        f"load average {result['load_average']}; embedder {result['embed_model']}, "
        f"{result['embed_solo_threads']} thread(s) for a lone query)"
    )
    return "\n".join(lines)


def plot(result: dict, path: Path) -> None:
    plt = pyplot()
    if plt is None:
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    latency_cdf(left, result["_samples"], "Latency CDF, in-process")
    left.legend(fontsize=8)
    names = list(result["rows"])
    p50 = [result["rows"][n]["p50_ms"] for n in names]
    right.bar(names, p50, color=["#fc8d62", "#8da0cb"])
    for i, n in enumerate(names):
        right.text(i, p50[i], f"{p50[i]:.1f} ms\nmAP@10 {result['rows'][n]['mAP@10']:.3f}", ha="center", va="bottom")
    right.set_ylabel("p50 (ms)")
    right.set_title(f"p50 ratio {result['ratio_p50']:.2f}x, CPU ratio {result['ratio_cpu']:.2f}x")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
