"""Error analysis of dependency inference on the DEV halves of the dev catalogs (never the fresh ones).

    .venv/bin/python -m benchmarks.deps_errors [--oof] [--no-nested-wants] [--json PATH] [--only KEY ...] [-v]

Every missed gold edge gets one cause:
- `no_want`: the consumer's gold parameter names no wanted instance (no candidate generated for it); split into
  `no_want:not_a_parameter` (the gold names a parameter the tool does not have, or none: a nested property or a
  tool-level edge), `no_want:object` (an object/array parameter: the rows have no nested wants) and
  `no_want:unrecognised`;
- `no_candidate`: the parameter is wanted, but no tool is a candidate at all (no tool offers its resource, every
  candidate was dropped, or an OpenAPI link names its provider);
- `not_candidate`: the parameter is wanted but the producer is not among its candidates;
- `below_threshold`: the producer is a candidate whose probability is below the scorer's threshold;
- `outranked`: above the threshold but cut by the second-candidate share or the per-parameter cap (`cut_by`:
  `second` or `cap`);
- `guard`: dropped by the hub guard.
Every false positive gets the feature that pushed its probability up most (per-tree path attributions of the
gradient-boosted trees) and how the candidate was found; every missed gold candidate (`below_threshold`,
`outranked`, `guard`) the feature that pulled it down most (`lowered by`, the shipped trees' attributions) and the
producer's kind (list, search, get, create ...; a table of causes by kind is printed). `--oof`: out-of-fold probabilities (5 folds by catalog,
as benchmarks/train_scorer.py chooses on) instead of the shipped scorer's (fitted on these dev halves)."""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections import Counter, defaultdict
from pathlib import Path

from benchmarks.deps_corpus import catalogs
from benchmarks.deps_gold import read_gold
from benchmarks.train_scorer import CatalogRows, out_of_fold, prepare
from kg_tools.deps.offline import LabelledEdge
from kg_tools.deps.producers import offer_index, set_sources, set_wants, tool_kind
from kg_tools.deps.producers import prepare as prepare_tools
from kg_tools.deps.resources import catalog_names
from kg_tools.deps.scoring import (
    FEATURES,
    Candidate,
    Scorer,
    default_scorer,
    ranked,
    select,
    set_probabilities,
)

CAUSES = (
    "no_want:not_a_parameter",
    "no_want:object",
    "no_want:unrecognised",
    "no_candidate",
    "not_candidate",
    "below_threshold",
    "outranked",
    "guard",
)


def attributions(scorer: Scorer, x: list[float]) -> dict[str, float]:
    """Each feature's share of the log-odds (Saabas: the change of node value along every tree's path)."""
    out: dict[str, float] = defaultdict(float)
    for tree in scorer.trees:
        node = 0
        while tree[node][2] >= 0:
            feature, threshold, left, right, value = tree[node]
            child = left if x[feature] <= threshold else right
            out[FEATURES[feature]] += scorer.rate * (tree[child][4] - value)
            node = child
    return out


def found_by(c: Candidate) -> str:
    """How a candidate was generated."""
    if c.offer is not None:
        how = f"{c.offer.source}{'' if c.offer.primary else '-nested'}"
    elif c.path_list or c.path_scoped or c.path_create:
        how = "path-" + ("list" if c.path_list else "scoped" if c.path_scoped else "create")
    else:
        how = "named-after"
    return how


def analyse(r: CatalogRows, scorer: Scorer, probs: dict[int, float] | None, nested_wants: bool = True) -> dict:
    scored = r.scored["dev"]
    groups = [[c for c in g if c.consumer.name in scored] for g in r.groups]
    groups = [g for g in groups if g]
    if probs is not None:
        for c in (c for g in groups for c in g):
            c.probability = probs[id(c)]
    else:
        set_probabilities(groups, scorer)
    accepted, _ = select(groups, scorer)
    no_hub = dataclasses.replace(scorer, hub_share=1.0, hub_min=10**9)
    before_hub, _ = select(groups, no_hub)
    pred = {(c.consumer.name, c.producer.name) for c in accepted} | {p for p in r.fixed if p[0] in scored}
    before = {(c.consumer.name, c.producer.name) for c in before_hub}
    edges, _ = read_gold(r.catalog.gold, "dev")
    tools = {t.name: t for t in r.catalog.tools()}
    missed: list[dict] = []
    seen: set[tuple[str, str]] = set()
    every_want = wants(r, nested_wants)
    for e in edges:
        pair = (e.source, e.target)
        if pair in pred or pair in seen:
            continue
        seen.add(pair)
        cands = [c for g in groups for c in g if (c.consumer.name, c.producer.name) == pair]
        wanted = {_top(c) for g in groups for c in g[:1] if c.consumer.name == e.source}
        if e.parameter_name in wanted:  # the producer as a candidate of the gold's parameter, not of another
            cands = [c for c in cands if _top(c) == e.parameter_name]
        if cands:
            best = max(cands, key=lambda c: c.probability)
            cause = (
                "guard" if pair in before else "below_threshold" if best.probability < scorer.threshold else "outranked"
            )
            shares = attributions(scorer, best.features)
            lowered = min(shares, key=lambda k: shares[k])
            detail = f"p={best.probability:.2f} {found_by(best)} [{best.want.parameter}] lowered by {lowered}"
            if cause == "outranked":
                detail += f" cut by {cut_by(groups, best, scorer)}"
        elif e.parameter_name in wanted:
            cause, detail = (
                "not_candidate",
                f"[{e.parameter_name}] wants {_want_of(groups, e.source, e.parameter_name)}",
            )
        else:
            cause, detail = _unwanted(e, tools, every_want)
        entry = {"pair": list(pair), "parameter": e.parameter_name, "cause": cause, "detail": detail}
        if cands:
            entry["lowered_by"] = lowered
            entry["kind"] = best.producer.kind
            if cause == "outranked":
                entry["cut_by"] = cut_by(groups, best, scorer)
        missed.append(entry)
    gold_pairs = {(e.source, e.target) for e in edges}
    wrong: list[dict] = []
    by_pair = {(c.consumer.name, c.producer.name): c for c in sorted(accepted, key=lambda c: c.probability)}
    for pair in sorted(pred - gold_pairs):
        c = by_pair.get(pair)
        if c is None:
            wrong.append({"pair": list(pair), "feature": "fixed rule", "found_by": "fixed", "p": 1.0})
            continue
        shares = attributions(scorer, c.features)
        top = max(shares, key=lambda k: shares[k])
        wrong.append(
            {
                "pair": list(pair),
                "parameter": c.want.parameter,
                "feature": top,
                "found_by": found_by(c),
                "p": round(c.probability, 3),
                "consumer_has_gold": any(s == pair[0] for s, _ in gold_pairs),
            }
        )
    return {
        "key": r.catalog.key,
        "gold": len(gold_pairs),
        "predicted": len(pred),
        "tp": len(pred & gold_pairs),
        "missed": missed,
        "wrong": wrong,
    }


def _unwanted(e: LabelledEdge, tools: dict, every_want: dict[tuple[str, str], str]) -> tuple[str, str]:
    """The cause of a missed gold edge whose parameter has no candidate group: wanted with no candidate at all, or
    not wanted (the gold names no parameter of the tool, an object, or a parameter not read as an instance)."""
    want = every_want.get((e.source, e.parameter_name or ""))
    if want is not None:
        return "no_candidate", f"[{e.parameter_name}] wants {want}"
    params = {str(p.get("name")): p for p in tools[e.source].parameters} if e.source in tools else {}
    p = params.get(e.parameter_name or "")
    if p is None:
        cause = "no_want:not_a_parameter"
    elif p.get("type") in ("object", "array") and not _id_like(e.parameter_name or ""):
        cause = "no_want:object"
    else:
        cause = "no_want:unrecognised"
    return cause, f"[{e.parameter_name}] {str((p or {}).get('type'))}"


def wants(r: CatalogRows, nested_wants: bool = True) -> dict[tuple[str, str], str]:
    """(consumer, top-level parameter) -> the resources and field of its first want, for every want of the catalog,
    with or without candidates (the candidate groups hold only wants that have some)."""
    raw = r.catalog.tools()
    with catalog_names(raw):
        tools = prepare_tools(raw)
        set_sources(tools, None)
        for t in tools.values():
            t.kind = tool_kind(t)
        set_wants(tools, set(offer_index(tools)), nested_wants=nested_wants)
    out: dict[tuple[str, str], str] = {}
    for t in tools.values():
        names = {str(p.get("name")) for p in t.parameters}
        for w in t.wants:
            out.setdefault((t.name, top_level(w.parameter, names)), f"{w.resources}/{w.field}")
    return out


def cut_by(groups: list[list[Candidate]], c: Candidate, scorer: Scorer) -> str:
    """Why a candidate above the threshold was not selected: `second` (under the best one's share) or `cap` (the
    parameter's per_parameter providers ranked before it)."""
    group = next(g for g in groups if any(x is c for x in g))
    best = ranked(group, scorer)[0]
    return "second" if c.probability < max(scorer.threshold, best.probability * scorer.second) else "cap"


def by_kind(results: list[dict]) -> str:
    """Missed gold candidates by cause (outranked split by `cut_by`) and the producer's kind."""
    counts: Counter = Counter()
    for res in results:
        for m in res["missed"]:
            if "kind" in m:
                cause = m["cause"] + (f":{m['cut_by']}" if "cut_by" in m else "")
                counts[(cause, m["kind"])] += 1
    causes = sorted({c for c, _ in counts})
    kinds = sorted({k for _, k in counts})
    lines = ["| cause | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
    lines += [f"| {c} | " + " | ".join(str(counts.get((c, k), "")) for k in kinds) + " |" for c in causes]
    return "\n".join(lines)


def top_level(parameter: str, names: set[str] | frozenset[str] = frozenset()) -> str:
    """The top-level parameter of a want (`params.projectId` -> `params`, `items[].task_id` -> `items`); one of
    `names`, the tool's own parameters, when a name has a dot of its own (`execution.workflow_id`, gRPC-gateway
    path parameters), the longest such name the want starts with."""
    held = [n for n in names if parameter == n or parameter.startswith((f"{n}.", f"{n}[]"))]
    return max(held, key=len) if held else parameter.split(".", 1)[0].removesuffix("[]")


def _top(c: Candidate) -> str:
    return top_level(c.want.parameter, {str(p.get("name")) for p in c.consumer.parameters})


def _want_of(groups: list[list[Candidate]], consumer: str, parameter: str | None) -> str:
    for g in groups:
        if g and g[0].consumer.name == consumer and _top(g[0]) == parameter:
            w = g[0].want
            return f"{w.resources}/{w.field} ({len(g)} candidates)"
    return "?"


def _id_like(name: str) -> bool:
    low = name.lower()
    return low.endswith(("id", "ids", "key", "slug", "name", "uri", "gid"))


def table(results: list[dict]) -> str:
    lines = ["| catalog | gold | pred | TP | " + " | ".join(CAUSES) + " | FP |", "|---" * (len(CAUSES) + 5) + "|"]
    total: Counter = Counter()
    for res in results:
        causes = Counter(m["cause"] for m in res["missed"])
        total.update(causes)
        total["gold"] += res["gold"]
        total["pred"] += res["predicted"]
        total["tp"] += res["tp"]
        total["fp"] += len(res["wrong"])
        cells = " | ".join(str(causes.get(k, 0) or "") for k in CAUSES)
        lines.append(
            f"| {res['key']} | {res['gold']} | {res['predicted']} | {res['tp']} | {cells} | {len(res['wrong'])} |"
        )
    cells = " | ".join(f"**{total.get(k, 0)}**" for k in CAUSES)
    lines.append(f"| **all** | {total['gold']} | {total['pred']} | {total['tp']} | {cells} | **{total['fp']}** |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--oof", action="store_true", help="out-of-fold probabilities (as train_scorer chooses on)")
    ap.add_argument("--only", nargs="*", help="keys")
    ap.add_argument("--json")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument(
        "--nested-wants",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="rows with nested wants, as inference runs (the default); the trees were fitted without",
    )
    args = ap.parse_args(argv)
    rows = [
        prepare(c, nested_wants=args.nested_wants) for c in catalogs("dev")
    ]  # dev catalogs only: the fresh ones stay unseen
    probs = out_of_fold(rows) if args.oof else None
    scorer = default_scorer()
    results = [
        analyse(r, scorer, probs[i] if probs else None, args.nested_wants)
        for i, r in enumerate(rows)
        if not args.only or r.catalog.key in args.only
    ]
    print(table(results))
    print("\nmissed gold candidates by cause and the producer's kind:\n" + by_kind(results))
    fooled: Counter = Counter(w["feature"] for res in results for w in res["wrong"])
    how: Counter = Counter(w["found_by"] for res in results for w in res["wrong"])
    no_gold = sum(not w.get("consumer_has_gold", True) for res in results for w in res["wrong"])
    print("\nfalse positives by the feature that raised them most:", dict(fooled.most_common()))
    print("false positives by how the candidate was found:", dict(how.most_common()))
    print(f"false positives whose consumer has no dev gold edge at all: {no_gold}")
    lowered: Counter = Counter(m["lowered_by"] for res in results for m in res["missed"] if "lowered_by" in m)
    print("missed gold candidates by the feature that lowered them most:", dict(lowered.most_common()))
    if args.verbose:
        for res in results:
            for m in res["missed"]:
                print(f"  {res['key']:22} missed {m['cause']:24} {m['pair'][0]} -> {m['pair'][1]}  {m['detail']}")
            for w in res["wrong"]:
                print(f"  {res['key']:22} wrong  {w['feature']:24} {w['pair'][0]} -> {w['pair'][1]}  {w.get('p')}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
