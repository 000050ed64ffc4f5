"""A few MCP servers gathered under plain names, measured offline: seeded draws of small groups (3 to 8 dev MCP
servers with gold, fewer than `--max-tools` tools in all), each group's tools gathered as ONE catalog under their
own names (`deps_union --names plain`), inferred once per group and scored against the group's per-server gold and
the family gold between its servers (an edge between two servers is wrong otherwise); pooled over the groups.

    .venv/bin/python -m benchmarks.deps_groups [--groups 20] [--max-tools 400] [--seed s25small] [--names plain|field]
        [--split dev test] [--json PATH] [-v]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from benchmarks.deps_corpus import CorpusCatalog
from benchmarks.deps_gold import gold_scores
from benchmarks.deps_union import servers, union, union_gold
from benchmarks.eval.catalog_eval import read_catalog
from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.offline import Examples, ToolInfo
from kg_tools.tool_spec import validate_catalog

SEED = "s25small"
SIZES = (3, 8)  # servers in a group, both ends included
TRIES = 1000  # draws per group before a limit almost no group meets is said to be too low


def draw(sizes: dict[str, int], groups: int, max_tools: int, seed: str = SEED) -> list[list[str]]:
    """`groups` seeded draws of SIZES servers (server -> its tool count) with fewer than `max_tools` tools in all;
    a draw over the limit is drawn again. ValueError when TRIES draws a group find none under it."""
    rng = random.Random(seed)
    names = sorted(sizes)
    out: list[list[str]] = []
    for _ in range(TRIES * max(groups, 0)):
        if len(out) == groups or len(names) < SIZES[0]:
            break
        group = sorted(rng.sample(names, rng.randint(SIZES[0], min(SIZES[1], len(names)))))
        if sum(sizes[s] for s in group) < max_tools:
            out.append(group)
    if len(out) < groups:
        smallest = sum(sorted(sizes.values())[: SIZES[0]])
        raise ValueError(
            f"--max-tools {max_tools}: {len(out)} of {groups} groups of {SIZES[0]} to {SIZES[1]} servers drawn under "
            f"it in {TRIES} draws a group ({len(names)} servers; the {SIZES[0]} smallest have {smallest} tools)"
        )
    return out


def measure_group(pool: dict[str, CorpusCatalog], splits: list[str], names: str = "plain") -> dict:
    """One group's union (`names` as deps_union's: `field` tells each tool's server) inferred once: its edges
    between servers, and per split the predicted / gold / right edges (for pooling) and the edges between servers
    the split scores."""
    raws, renamed, _ = union(names, pool)
    server = {n: s for (s, _), n in renamed.items()}
    tools = [ToolInfo.from_raw(r) for r in validate_catalog(raws).raw]
    result = infer_catalog(tools, None, Examples([]), min_confidence=0.2, catalog="mcp_group")
    cross = [e for e in result.edges if server[e.source] != server[e.target]]
    out: dict = {
        "servers": sorted(pool),
        "tools": len(tools),
        "edges": len(result.edges),
        "cross_server": len(cross),
        "cross_by_pair": Counter(f"{server[e.source]} -> {server[e.target]}" for e in cross).most_common(5),
    }
    for split in splits:
        gold, scored = union_gold(renamed, split, families=True, pool=pool)
        edges = [e for e in result.edges if scored is None or e.source in scored]
        s = gold_scores(edges, gold)
        right = {(e.source, e.target) for e in gold} & {(e.source, e.target) for e in edges}
        out[split] = {
            "predicted": s["predicted"],
            "gold": s["gold"],
            "right": len(right),
            "cross_server": sum(server[e.source] != server[e.target] for e in edges),
            "cross_right": sum(server[s] != server[t] for s, t in right),
        }
    return out


def pooled(results: list[dict], split: str) -> dict:
    """P / R over every group's edges of one split."""
    tot: Counter[str] = Counter()
    for r in results:
        tot.update(r[split])
    return {
        "precision": round(tot["right"] / tot["predicted"], 3) if tot["predicted"] else 0.0,
        "recall": round(tot["right"] / tot["gold"], 3) if tot["gold"] else 0.0,
    } | dict(tot)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--groups", type=int, default=20)
    ap.add_argument("--max-tools", type=int, default=400)
    ap.add_argument("--seed", default=SEED)
    ap.add_argument("--split", nargs="*", default=["dev", "test"], choices=["dev", "test", "all"])
    ap.add_argument("--names", default="plain", choices=["plain", "field"], help="field: the servers told")
    ap.add_argument("--json")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each group")
    args = ap.parse_args(argv)
    every = servers()
    sizes = {s: len(validate_catalog(read_catalog(c.file, c.key).tools).raw) for s, c in every.items()}
    try:
        drawn = draw(sizes, args.groups, args.max_tools, args.seed)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    results = []
    for group in drawn:
        r = measure_group({s: every[s] for s in group}, args.split, args.names)
        results.append(r)
        if args.verbose:
            halves = "  ".join(
                f"{s}: {r[s]['right']}/{r[s]['predicted']} ({r[s]['cross_server']} cross)" for s in args.split
            )
            print(f"{r['tools']:4} tools {r['edges']:4} edges {r['cross_server']:3} cross  {halves}  {' '.join(group)}")
    report = {"groups": len(results), "tools": sum(r["tools"] for r in results)}
    report |= {s: pooled(results, s) for s in args.split}
    print(
        f"{report['groups']} groups {report['tools']} tools  "
        + "  ".join(
            f"{s}: P {report[s]['precision']:.3f} R {report[s]['recall']:.3f} ({report[s]['predicted']} edges, "
            f"{report[s]['cross_server']} cross, {report[s]['cross_right']} of them right)"
            for s in args.split
        )
    )
    if args.json:
        Path(args.json).write_text(json.dumps(report | {"per_group": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
