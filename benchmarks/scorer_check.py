"""The retrieval side of choosing a dependency scorer: which inferred edges of the eight dev catalogs with queries a
candidate scorer (`benchmarks.train_scorer --out PATH`) changes against the shipped one, offline (no Neo4j).

    .venv/bin/python -m benchmarks.scorer_check CANDIDATE.json [--against SCORER.json] [--sure 0.5] [-v]

Per catalog: the edges each scorer infers (as `kg-tools eval catalog --infer-deps` does: no labelled edges, no
LLM), how many differ, the edges between the golden tools of each dev query (all / sure: at least `--sure`, the
confidence retrieval lists a dependency before the next seed at), and the edges from a golden tool to a tool the
query does not need (each takes one of the K places, before the next seed when sure: a right edge of the gold can
still lower retrieval; dependencies of dependencies are not followed here). A catalog where none of these differ is unlikely to move; the others need the retrieval rows measured
(docs/dependencies.md, "Inferred edges in retrieval"). The test queries are never read."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from benchmarks import DATA
from benchmarks.eval.catalog_eval import read_catalog, read_queries
from kg_tools.deps.infer import DEFAULT_MIN_CONFIDENCE
from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import infer_producers
from kg_tools.deps.scoring import WEIGHTS_FILE, Scorer
from kg_tools.tool_spec import validate_catalog

OPENAPI = ("asana", "box", "semaphore", "argo_workflows", "listmonk", "qdrant")
CATALOGS: dict[str, tuple[Path, Path]] = {
    **{k: (DATA / "deps" / "openapi" / f"{k}.json", DATA / "deps" / "queries" / f"{k}.json") for k in OPENAPI},
    "catalog_all": (DATA / "real" / "catalog_all.json", DATA / "real" / "queries_dev.json"),
    "catalog_xl": (DATA / "real" / "catalog_xl.json", DATA / "real" / "queries_xl_dev.json"),
}

Edges = dict[tuple[str, str], float]


def load_scorer(path: Path) -> Scorer:
    return Scorer.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def catalog_tools(key: str) -> list[ToolInfo]:
    source = read_catalog(CATALOGS[key][0], key)
    return [ToolInfo.from_raw(raw) for raw in validate_catalog(source.tools).raw]


def inferred(tools: list[ToolInfo], scorer: Scorer) -> Edges:
    proposals = infer_producers(tools, scorer=scorer, min_confidence=DEFAULT_MIN_CONFIDENCE)
    return {(e.source, e.target): e.confidence for e in proposals}


def golden_edges(key: str, edges: Edges, sure: float) -> tuple[set, set, set]:
    """Over the dev queries: the edges (source, target) between golden tools of one query, all and sure ones, and
    the edges (query, source, target) from a golden tool to a tool that query does not need."""
    every, sure_ones, extra = set(), set(), set()
    for q in read_queries(CATALOGS[key][1], "dev"):
        golden = set(q.gold)
        for (a, b), confidence in edges.items():
            if a not in golden:
                continue
            if b in golden:
                every.add((a, b))
                if confidence >= sure:
                    sure_ones.add((a, b))
            else:
                extra.add((q.query, a, b))
    return every, sure_ones, extra


def compare(key: str, candidate: Scorer, shipped: Scorer, sure: float) -> dict:
    tools = catalog_tools(key)
    new, old = inferred(tools, candidate), inferred(tools, shipped)
    g_new, s_new, x_new = golden_edges(key, new, sure)
    g_old, s_old, x_old = golden_edges(key, old, sure)
    return {
        "key": key,
        "edges": [len(old), len(new)],
        "changed": len(set(new) ^ set(old)),
        "golden": [len(g_old), len(g_new)],
        "golden_sure": [len(s_old), len(s_new)],
        "sure_to_others": [len(x_old), len(x_new)],
        "lost": sorted(f"{a} -> {b}" for a, b in (g_old - g_new) | (s_old - s_new)),
        "gained": sorted(f"{a} -> {b}" for a, b in (g_new - g_old) | (s_new - s_old)),
        "crowding": sorted(f"{a} -> {b} (not needed by: {q[:60]})" for q, a, b in x_new - x_old),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("candidate", help="a scorer file (benchmarks.train_scorer --out PATH)")
    ap.add_argument("--against", default=str(WEIGHTS_FILE), help="the scorer to compare with (default: shipped)")
    ap.add_argument("--sure", type=float, default=0.5, help="KG_TOOLS_DEPS_SURE_CONFIDENCE of the retrieval rows")
    ap.add_argument("-v", "--verbose", action="store_true", help="name the golden edges lost and gained")
    args = ap.parse_args(argv)
    candidate, shipped = load_scorer(Path(args.candidate)), load_scorer(Path(args.against))
    moved = []
    print(f"{'catalog':16} {'edges':>11} {'changed':>8} {'golden':>9} {'sure':>9} {'to others':>10}")
    for key in CATALOGS:
        r = compare(key, candidate, shipped, args.sure)
        (e0, e1), (g0, g1), (s0, s1), (x0, x1) = r["edges"], r["golden"], r["golden_sure"], r["sure_to_others"]
        print(f"{key:16} {e0:5} {e1:5} {r['changed']:8} {g0:4} {g1:4} {s0:4} {s1:4} {x0:5} {x1:4}")
        if args.verbose:
            for edge in r["lost"]:
                print(f"    lost   {edge}")
            for edge in r["gained"]:
                print(f"    gained {edge}")
            for edge in r["crowding"]:
                print(f"    more   {edge}")
        if r["lost"] or r["gained"] or r["crowding"] or x1 != x0:
            moved.append(key)
    print(f"golden edges differ on: {', '.join(moved) or 'none'} (measure their retrieval rows)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
