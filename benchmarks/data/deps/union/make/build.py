"""The many-server retrieval row's files: the union of the dev MCP servers with gold (`benchmarks.deps_union`, never
a fresh one) as a JSON catalog, and the hand-written requests under the same names.

    .venv/bin/python -m benchmarks.data.deps.union.make.build [--out out/union] [--names prefixed plain field]
    .venv/bin/python -m benchmarks.data.deps.union.make.build --from-text   # requests.txt -> ../queries.json

Writes OUT/catalog_<names>.json (about 6 MB each, so generated, not committed) and OUT/queries_<names>.json: the
requests of ../queries.json (gateway names `<server>__<tool>`) with their gold renamed as the union names that
server's tool (`plain`: a name two servers share keeps the first, the later ones get `_2`, `_3`)."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from benchmarks.deps_union import SEP, union

HERE = Path(__file__).resolve().parent
QUERIES = HERE.parent / "queries.json"
SEED = "s14union"  # the fixed draw of the dev/test halves (per kind, half each)


def from_text(text: Path = HERE / "requests.txt") -> list[dict]:
    """requests.txt (`kind|request|gold tools, the main one last`) as instances, halves drawn per kind."""
    rows = [line.split("|") for line in text.read_text(encoding="utf-8").splitlines() if line.strip()]
    rng = random.Random(SEED)
    out: list[dict] = []
    for kind in dict.fromkeys(k for k, _, _ in rows):
        mine = [r for r in rows if r[0] == kind]
        order = list(range(len(mine)))
        rng.shuffle(order)
        dev = set(order[: (len(mine) + 1) // 2])
        for i, (_, request, gold) in enumerate(mine):
            names = gold.split()
            out.append(
                {
                    "id": f"union-{kind}-{i + 1:03d}",
                    "kind": kind,
                    "user_query": request,
                    "golden_function_names": names,
                    "main_golden_function_name": names[-1],
                    "split": "dev" if i in dev else "test",
                }
            )
    return out


def renamed_queries(names: str) -> list[dict]:
    """../queries.json with its gold under the union's `names`."""
    _, renamed, _ = union(names)
    rows = json.loads(QUERIES.read_text(encoding="utf-8"))

    def new(name: str) -> str:
        server, _, own = name.partition(SEP)
        return renamed[(server, own)]

    return [
        q
        | {
            "golden_function_names": [new(n) for n in q["golden_function_names"]],
            "main_golden_function_name": new(q["main_golden_function_name"]),
        }
        for q in rows
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="out/union")
    ap.add_argument("--names", nargs="*", default=["prefixed", "plain"], choices=["prefixed", "plain", "field"])
    ap.add_argument("--from-text", action="store_true", help="rewrite ../queries.json from make/requests.txt")
    args = ap.parse_args(argv)
    if args.from_text:
        QUERIES.write_text(json.dumps(from_text(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {QUERIES}")
        return 0
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for names in args.names:
        raws, _, suffixed = union(names)
        (out / f"catalog_{names}.json").write_text(json.dumps(raws, ensure_ascii=False), encoding="utf-8")
        queries = renamed_queries(names)
        (out / f"queries_{names}.json").write_text(json.dumps(queries, indent=1, ensure_ascii=False), encoding="utf-8")
        print(f"{names}: {len(raws)} tools ({suffixed} suffixed), {len(queries)} requests -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
