"""The shipped trees' probabilities under other selections: how many providers a parameter keeps, and at what cost.

    .venv/bin/python -m benchmarks.deps_selection [--groups FILE] [--only KEY ...] SELECTION ...

Each SELECTION is `name` or `NAME=VALUE,...` of Scorer's selection fields (threshold, second, per_parameter,
root_extra, hub_share, hub_min, made), applied over the shipped `scorer.json`; `shipped` is the file as it is. For each:
pooled precision / recall / edges on the dev halves and the test halves of the dev catalogs (never the fresh ones),
the catalogs at the issue's aim (recall >= 0.6 at precision >= 0.7), and per group of `--groups` (a JSON object
name -> catalog keys, e.g. out/groups_extra.json). The rows are computed once, the selections re-run on them."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from benchmarks.deps_corpus import catalogs
from benchmarks.train_scorer import evaluate, prepare
from kg_tools.deps.scoring import Scorer, default_scorer

FIELDS = {
    "threshold": float,
    "second": float,
    "per_parameter": int,
    "root_extra": int,
    "hub_share": float,
    "hub_min": int,
    "made": float,
}


def selection(text: str, base: Scorer) -> Scorer:
    """`per_parameter=3,second=0` over `base`; `shipped`: `base` itself."""
    if text == "shipped":
        return base
    change = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        if name not in FIELDS:
            raise SystemExit(f"unknown selection field {name!r} (one of {', '.join(FIELDS)})")
        try:
            change[name] = FIELDS[name](value)
        except ValueError:
            raise SystemExit(f"{name} needs a {FIELDS[name].__name__} value ({name}=VALUE), got {value!r}") from None
    return dataclasses.replace(base, **change)


def pooled(per: list[dict], keys: set[str] | None = None) -> str:
    rows = [r for r in per if keys is None or r["key"] in keys]
    tp, pred, gold = (sum(r[k] for r in rows) for k in ("true_positives", "predicted", "gold"))
    return f"{tp / pred if pred else 0:.3f} / {tp / gold if gold else 0:.3f} ({pred})"


def at_aim(per: list[dict]) -> str:
    scored = [r for r in per if r["gold"]]
    return f"{sum(r['recall'] >= 0.6 and r['precision'] >= 0.7 for r in scored)}/{len(scored)}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("selections", nargs="+")
    ap.add_argument("--groups", help="JSON: group name -> catalog keys")
    ap.add_argument("--only", nargs="*", help="keys")
    args = ap.parse_args(argv)
    groups = json.loads(Path(args.groups).read_text()) if args.groups else {}
    base = default_scorer()
    scorers = [(text, selection(text, base)) for text in args.selections]
    rows = [prepare(c) for c in catalogs("dev") if not args.only or c.key in args.only]
    names = ["all", *groups]
    print("| selection | split | " + " | ".join(names) + " | at aim |")
    print("|---" * (len(names) + 3) + "|")
    for text, scorer in scorers:
        for split in ("dev", "test"):
            per = evaluate(rows, split, scorer)["catalogs"]
            cells = [pooled(per)] + [pooled(per, set(groups[g])) for g in groups]
            print(f"| {text} | {split} | " + " | ".join(cells) + f" | {at_aim(per)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
