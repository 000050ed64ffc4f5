"""`kg-tools bench compare`: the default retrieval in-process against two peers in the same run:
neo4j-graphrag's `VectorCypherRetriever` (one vector search + one dependency traversal,
cypher/bench_peer_retrieval.cypher) and its `HybridCypherRetriever` (vector + fulltext index, as the default's
hybrid-boost search, + the same traversal). Same embedder instance (wrapped as neo4j-graphrag's Embedder), same
graph, same queries, interleaved (the order rotates per query). Per request: wall time (perf_counter)
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
from kg_tools.retrieval.queries import lucene_query
from kg_tools.retrieval.request import RetrievalRequest
from kg_tools.schema import FULLTEXT_INDEX, VECTOR_INDEX

K = 10
PEER_TOP_K = 3  # the peer's seeds, as the default's k
GOAL_PEER = "neo4j-graphrag-hybrid"  # the like-for-like peer (the same two indexes): issue 32's p50 <= 1.1x


def peer_embedder(embedder):
    """Our embedder as neo4j-graphrag's `Embedder`: the same model and sessions; the encoder itself, so that no
    vector enters the embedder's cache, where the default would find it (every query is embedded by each)."""
    from neo4j_graphrag.embeddings.base import Embedder  # noqa: PLC0415 - only `bench compare` runs the peers

    class Ours(Embedder):
        def embed_query(self, text: str) -> list[float]:
            vectors = embedder.encoder.encode([embedder.query_prefix + text], embedder.batch_size, solo=True)
            return vectors[0].tolist()

    return Ours()


def peer_retrievers(graph, embedder) -> dict[str, Callable[[str], list[str]]]:
    """neo4j-graphrag 1.21's VectorCypherRetriever and HybridCypherRetriever over our indexes, as name lists."""
    from neo4j_graphrag.retrievers import (  # noqa: PLC0415 - only `bench compare` runs the peers
        HybridCypherRetriever,
        VectorCypherRetriever,
    )

    ours = peer_embedder(embedder)
    common = {"retrieval_query": query("bench_peer_retrieval"), "neo4j_database": graph.database}
    vector = VectorCypherRetriever(graph.driver, index_name=VECTOR_INDEX, embedder=ours, **common)
    hybrid = HybridCypherRetriever(
        graph.driver, vector_index_name=VECTOR_INDEX, fulltext_index_name=FULLTEXT_INDEX, **common
    )

    def hybrid_search(text: str):
        # the fulltext leg takes a Lucene query: special characters escaped as the default escapes them
        return hybrid.get_search_results(
            query_text=lucene_query(text), query_vector=ours.embed_query(text), top_k=PEER_TOP_K
        )

    return {
        "neo4j-graphrag": lambda text: peer_names(vector.get_search_results(query_text=text, top_k=PEER_TOP_K)),
        "neo4j-graphrag-hybrid": lambda text: peer_names(hybrid_search(text)),
    }


def peer_names(result) -> list[str]:
    """Seed 1, its dependencies, seed 2, ... unique, cut to K."""
    names: list[str] = []
    for record in result.records:
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
    """The three retrievers over the first n instances, interleaved; the result dict (`_samples`: per request)."""
    systems: dict[str, Callable[[str], list[str]]] = {
        "kg-tools": lambda q: pipeline.retrieve(RetrievalRequest(query=q, K=K)).names,
        **peer_retrievers(graph, embedder),
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
            names_in_order = list(systems)
            shift = i % len(names_in_order)  # each retriever first, second and third in turn
            order = names_in_order[shift:] + names_in_order[:shift]
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
    ours = rows["kg-tools"]
    ratios = {
        peer: {
            "p50": round(ours["p50_ms"] / rows[peer]["p50_ms"], 3),
            "cpu": round(ours["cpu_ms_per_request"] / rows[peer]["cpu_ms_per_request"], 3),
        }
        for peer in rows
        if peer != "kg-tools"
    }
    return {
        "requests": len(timed),
        "background_load": load,
        "load_average": load_before,  # 1-minute load average before the timed requests
        "cpus": os.cpu_count(),
        "embed_model": embedder.name,
        "embed_solo_threads": embedder.solo_threads,
        "rows": rows,
        "ratio_p50": ratios["neo4j-graphrag"]["p50"],  # against the vector peer (the first key of this JSON)
        "ratio_cpu": ratios["neo4j-graphrag"]["cpu"],
        "ratios": ratios,  # against each peer
        "goal_peer": GOAL_PEER,
        "_samples": {name: s["wall"] for name, s in samples.items()},
    }


def table(result: dict) -> str:
    lines = [f"{'retriever':<24}{'p50 ms':>9}{'p95 ms':>9}{'CPU ms/req':>12}{'mAP@10':>9}"]
    for name, r in result["rows"].items():
        lines.append(
            f"{name:<24}{r['p50_ms']:>9.2f}{r['p95_ms']:>9.2f}{r['cpu_ms_per_request']:>12.2f}{r['mAP@10']:>9.4f}"
        )
    for peer, ratio in result["ratios"].items():
        note = "goal <= 1.1: the same two indexes" if peer == GOAL_PEER else "reference: a vector search alone"
        lines.append(f"kg-tools / {peer}: p50 {ratio['p50']:.2f}x ({note}), CPU {ratio['cpu']:.2f}x")
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
    right.bar(names, p50, color=["#fc8d62", "#8da0cb", "#66c2a5"][: len(names)])
    for i, n in enumerate(names):
        right.text(i, p50[i], f"{p50[i]:.1f} ms\nmAP@10 {result['rows'][n]['mAP@10']:.3f}", ha="center", va="bottom")
    right.set_ylabel("p50 (ms)")
    right.set_title(", ".join(f"/ {peer}: p50 {r['p50']:.2f}x" for peer, r in result["ratios"].items()), fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
