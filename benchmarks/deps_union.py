"""Many MCP servers in one catalog, measured offline: the tool lists of every dev MCP server with gold (the corpus's
and the team's first gold's; never a fresh one) gathered as ONE catalog, inferred once and scored against the union
of the per-server gold (an edge between two servers is wrong).

    .venv/bin/python -m benchmarks.deps_union [--names prefixed|plain|field] [--split dev|test|all]
        [--by-name places|no-places] [--shuffled] [--family-gold]
        [--json PATH] [-v]

Names: `prefixed` = gateway names `<server>__<tool>`; `plain` = the tools' own names (a name two servers share keeps
both, the later ones with a minimal `_<n>` suffix); `field` = plain names, each record carrying the `mcp_server`
field a JSON catalog may hold. `--family-gold`: the gold with the hand-written edges between servers of one
product family (`data/deps/union/family_gold.json`). `--shuffled`: the tools in a seeded random order without
places (a catalog shuffled before it was loaded: its order says nothing of its servers). A first-gold server that
is also a corpus catalog (mongodb, notion) is taken once, from the corpus."""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from pathlib import Path

from benchmarks.deps_corpus import CorpusCatalog, catalogs
from benchmarks.deps_gold import gold_scores, read_gold, scored_sources
from benchmarks.eval.catalog_eval import read_catalog
from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.offline import Examples, LabelledEdge, ToolInfo
from kg_tools.tool_spec import validate_catalog

SEP = "__"
SEED = "s15plain"  # --shuffled
FAMILY_GOLD = Path(__file__).parent / "data" / "deps" / "union" / "family_gold.json"


def servers() -> dict[str, CorpusCatalog]:
    """server name -> its dev MCP catalog with gold."""
    out: dict[str, CorpusCatalog] = {}
    for c in catalogs("dev"):
        if c.kind != "mcp":
            continue
        name = c.key.removeprefix("mcp_") if c.origin == "first" else c.key
        if c.origin == "first" and name in {k.key for k in catalogs("dev") if k.origin == "corpus"}:
            continue
        out[name] = c
    return dict(sorted(out.items()))


def union(
    names: str, pool: dict[str, CorpusCatalog] | None = None
) -> tuple[list[dict], dict[tuple[str, str], str], int]:
    """The union catalog's raw tools (of `pool`, default every server), (server, own name) -> its name in the
    union, and how many names were suffixed because another server had taken them."""
    raws: list[dict] = []
    renamed: dict[tuple[str, str], str] = {}
    taken: set[str] = set()
    clashes = 0
    for server, c in (servers() if pool is None else pool).items():
        for raw in validate_catalog(read_catalog(c.file, c.key).tools).raw:
            own = raw["name"]
            if names == "prefixed":
                name = f"{server}{SEP}{own}"
            else:
                name, n = own, 1
                while name in taken:
                    n += 1
                    name = f"{own}_{n}"
                clashes += n > 1
            taken.add(name)
            renamed[(server, own)] = name
            extra = {"mcp_server": server} if names == "field" else {}
            raws.append(raw | {"name": name} | extra)
    return raws, renamed, clashes


def family_gold(renamed: dict[tuple[str, str], str]) -> list[LabelledEdge]:
    """The hand-written edges between servers of one product family (FAMILY_GOLD, `<server>__<tool>` names) under
    the union's names (those between servers the union holds)."""
    edges, _ = read_gold(FAMILY_GOLD)
    name = {f"{s}{SEP}{o}": n for (s, o), n in renamed.items()}
    return [
        LabelledEdge(name[e.source], name[e.target], e.type, e.parameter_name)
        for e in edges
        if e.source in name and e.target in name
    ]


def union_gold(
    renamed: dict[tuple[str, str], str],
    split: str,
    families: bool = False,
    pool: dict[str, CorpusCatalog] | None = None,
) -> tuple[list[LabelledEdge], set[str] | None]:
    """The per-server gold (of `pool`, default every server) under the union's names, and the consumers the split
    scores; `families`: with the family gold's edges whose consumer the split scores."""
    gold: list[LabelledEdge] = []
    scored: set[str] | None = None if split == "all" else set()
    for server, c in (servers() if pool is None else pool).items():
        own = {o: n for (s, o), n in renamed.items() if s == server}
        edges, _ = read_gold(c.gold, split)
        gold += [LabelledEdge(own[e.source], own[e.target], e.type, e.parameter_name) for e in edges]
        half = scored_sources(c.gold, split, set(own))
        if scored is not None and half is not None:
            scored |= {own[o] for o in half}
    if families:
        gold += [e for e in family_gold(renamed) if scored is None or e.source in scored]
    return gold, scored


def measure(names: str, splits: list[str], by_name: str = "", shuffled: bool = False, families: bool = False) -> dict:
    """`families`: the gold with the family gold's edges between servers (union_gold). `by_name`: '' (the file's
    order), 'places' (sorted by name, each tool knowing its place, as `kg-tools deps infer` reads a stored catalog:
    cypher/deps_catalog_tools.cypher), 'no-places' (sorted, places unknown); `shuffled`: the tools in a seeded random
    order, places unknown."""
    raws, renamed, clashes = union(names)
    server = {n: s for (s, _), n in renamed.items()}
    tools = [ToolInfo.from_raw(r) for r in validate_catalog(raws).raw]
    if by_name:
        for i, t in enumerate(tools):
            t.position = i if by_name == "places" else None
        tools.sort(key=lambda t: t.name)
    if shuffled:
        random.Random(SEED).shuffle(tools)
    start = time.perf_counter()
    result = infer_catalog(tools, None, Examples([]), min_confidence=0.2, catalog="mcp_union")
    seconds = time.perf_counter() - start
    cross = [e for e in result.edges if server[e.source] != server[e.target]]
    out = {
        "names": names
        + (f" by name ({by_name})" if by_name else "")
        + (" shuffled" if shuffled else "")
        + (" family gold" if families else ""),
        "servers": len(servers()),
        "tools": len(tools),
        "suffixed": clashes,
        "seconds": round(seconds, 1),
        "edges": len(result.edges),
        "edges_per_tool": round(len(result.edges) / len(tools), 3),
        "cross_server": len(cross),
        "cross_by_pair": Counter(f"{server[e.source]} -> {server[e.target]}" for e in cross).most_common(15),
        "cross_examples": sorted(f"{e.source} -> {e.target} ({e.parameter_name}, {e.confidence:.2f})" for e in cross),
    }
    for split in splits:
        gold, scored = union_gold(renamed, split, families)
        edges = [e for e in result.edges if scored is None or e.source in scored]
        s = gold_scores(edges, gold)
        out[split] = {
            "precision": s["untyped"]["precision"],
            "recall": s["untyped"]["recall"],
            "predicted": s["predicted"],
            "gold": s["gold"],
            "cross_server": sum(server[e.source] != server[e.target] for e in edges),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--names", nargs="*", default=["prefixed", "plain"], choices=["prefixed", "plain", "field"])
    ap.add_argument("--split", nargs="*", default=["dev", "test"], choices=["dev", "test", "all"])
    ap.add_argument("--by-name", choices=["places", "no-places"], help="tools sorted by name, as the graph gives them")
    ap.add_argument("--shuffled", action="store_true", help="tools in a seeded random order, without places")
    ap.add_argument("--family-gold", action="store_true", help="count the family gold's edges between servers right")
    ap.add_argument("--json")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the cross-server edges")
    args = ap.parse_args(argv)
    report = []
    for names in args.names:
        r = measure(names, args.split, args.by_name or "", args.shuffled, args.family_gold)
        report.append(r)
        halves = "  ".join(
            f"{s}: P {r[s]['precision']:.3f} R {r[s]['recall']:.3f} ({r[s]['predicted']} edges, "
            f"{r[s]['cross_server']} cross)"
            for s in args.split
        )
        print(
            f"{r['names']:8} {r['servers']} servers {r['tools']} tools ({r['suffixed']} suffixed)  {r['edges']} edges "
            f"({r['edges_per_tool']}/tool, {r['cross_server']} cross-server)  {r['seconds']} s  {halves}"
        )
        if args.verbose:
            for line in r["cross_examples"]:
                print("    cross", line)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
