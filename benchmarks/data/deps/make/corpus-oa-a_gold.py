"""Expand corpus-oa-a_gold.txt (hand-written gold edges, same line format as
benchmarks/data/real/make/gold_edges.txt) into ../gold/<key>.json, checking every tool and parameter
name against the catalog as loaded, and splitting by consumer (sorted consumers: even dev, odd test).

    /work/main/.venv/bin/python corpus-oa-a_gold.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, "/work/main")
from benchmarks.eval.catalog_eval import read_catalog  # noqa: E402
from gold_openapi import gold_edge, split_by_consumer  # noqa: E402  (this directory is on sys.path)

HERE = Path(__file__).resolve().parent
DEPS = HERE.parent
PROVIDERS = {"asana": "Asana", "twilio_conversations": "Twilio (Conversations API)", "box": "Box",
             "digitalocean": "DigitalOcean", "sendgrid": "Twilio SendGrid"}


def sections(text: str):
    key, rows = None, []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if key:
                yield key, rows
            key, rows = line[1:line.index("]")], []
        else:
            rows.append(line)
    if key:
        yield key, rows


def main() -> None:
    text = (HERE / "corpus-oa-a_gold.txt").read_text(encoding="utf-8")
    for key, rows in sections(text):
        src = read_catalog(DEPS / "openapi" / f"{key}.json", key)
        params = {t["name"]: {p["name"] for p in t["parameters"]} for t in src.tools}
        edges, seen = [], set()
        for row in rows:
            cons, par, provs, typ, reason = [x.strip() for x in row.split("|", 4)]
            plist = [p.strip() for p in par.split(",")]
            consumers = [c.strip() for c in cons.split(",")]
            if consumers == ["*"]:
                consumers = [t for t in params if set(plist) & params[t]]
            for c in consumers:
                if c not in params:
                    sys.exit(f"{key}: unknown consumer {c!r} in: {row}")
                mine = [p for p in plist if p in params[c]] if par != "-" else ["-"]
                if not mine:
                    sys.exit(f"{key}: {c} has none of {plist} in: {row}")
                for p in mine:
                    for prov in [x.strip() for x in provs.split(",")]:
                        if prov not in params:
                            sys.exit(f"{key}: unknown provider {prov!r} in: {row}")
                        if prov == c:
                            continue
                        k = (c, prov, p)
                        if k in seen:
                            continue
                        seen.add(k)
                        edges.append(gold_edge(c, prov, p, typ, reason))
        order = split_by_consumer(edges, DEPS / "gold" / f"{key}.json")
        out = {"provenance": f"Written by hand for kg-tools from {PROVIDERS[key]}'s spec/tool descriptions; corpus-oa-a",
               "catalog_file": f"openapi/{key}.json", "edges": edges}
        (DEPS / "gold" / f"{key}.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(key, len(edges), "edges,", len(order), "consumers")


if __name__ == "__main__":
    main()
