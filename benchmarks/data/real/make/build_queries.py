"""queries.txt (hand-written) -> queries_dev.json, queries_test.json in the instances format that
benchmarks.eval.datasets.instances_from_rows reads, plus `id`, `kind` and `split`; for catalog_xl.json,
queries_xl_dev.json / queries_xl_test.json: the rows of queries.txt whose gold uses no tool of equivalents.json
plus the rows of queries_xl.txt (ids `xl-…`); for catalog_steps.json, queries_steps_dev.json /
queries_steps_test.json: the rows of queries.txt whose gold uses no tool of equivalents_steps.json (same split)
plus the rows of queries_steps.txt (ids `steps-…`). Run from the repo root:

    PYTHONPATH=. python benchmarks/data/real/make/build_queries.py

Split 60/40 stratified by kind and fixed by position: within each kind, rows 0, 1, 2 of every five go to dev,
rows 3, 4 to test. Every gold name must be a tool of catalog_all.json.
queries_steps.txt is split at random instead, fixed before any result was seen: within each kind, the rows
shuffled with random.Random(STEPS_SEED), the first 60 % (rounded) to dev, the rest to test.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).parent
REAL = HERE.parent
KINDS = ("single", "multi", "multi-step")
STEPS_SEED = 29  # issue 29; chosen before any result on queries_steps.txt was seen


def parse(text: str) -> list[dict]:
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        kind, query, gold = (part.strip() for part in line.split(" | "))
        names = [g.strip() for g in gold.split(",")]
        mains = [g.rstrip("*") for g in names if g.endswith("*")]
        if kind not in KINDS or len(mains) != 1:
            raise SystemExit(f"queries.txt:{n}: needs a kind of {KINDS} and exactly one tool marked *")
        gold_names = [g.rstrip("*") for g in names]
        if len(set(gold_names)) != len(gold_names) or (kind == "single") != (len(gold_names) == 1):
            raise SystemExit(f"queries.txt:{n}: duplicate gold, or a single-tool row without exactly one tool")
        rows.append({"kind": kind, "user_query": query, "golden_function_names": gold_names,
                     "main_golden_function_name": mains[0], "line": n})
    return rows


def check(rows: list[dict], catalog_file: str) -> None:
    catalog = {t["name"] for t in json.loads((REAL / catalog_file).read_text())}
    unknown = sorted({g for r in rows for g in r["golden_function_names"]} - catalog)
    if unknown:
        raise SystemExit(f"gold names not in {catalog_file}: {unknown}")
    queries = [r["user_query"].lower() for r in rows]
    if len(set(queries)) != len(queries):
        raise SystemExit("duplicate requests")


def split_rows(rows: list[dict], prefix: str, source: str) -> dict[str, list[dict]]:
    out = {"dev": [], "test": []}
    for kind in KINDS:
        for i, row in enumerate(r for r in rows if r["kind"] == kind):
            split = "dev" if i % 5 < 3 else "test"
            out[split].append({"id": f"{prefix}{kind}-{i + 1:03d}", **{k: v for k, v in row.items() if k != "line"},
                               "split": split, "source": f"{source}:{row['line']}"})
    return out


def split_random(rows: list[dict], prefix: str, source: str, seed: int) -> dict[str, list[dict]]:
    """Within each kind: ids by position in the file, dev/test by a seeded shuffle (60 % dev, rounded)."""
    out = {"dev": [], "test": []}
    rng = random.Random(seed)
    for kind in KINDS:
        of_kind = [r for r in rows if r["kind"] == kind]
        order = list(range(len(of_kind)))
        rng.shuffle(order)
        dev = set(order[: round(0.6 * len(of_kind))])
        for i, row in enumerate(of_kind):
            split = "dev" if i in dev else "test"
            out[split].append({"id": f"{prefix}{kind}-{i + 1:03d}", **{k: v for k, v in row.items() if k != "line"},
                               "split": split, "source": f"{source}:{row['line']}"})
    return out


def write(name: str, items: list[dict]) -> None:
    lines = ",\n".join(json.dumps(r, ensure_ascii=False) for r in items)
    (REAL / name).write_text("[\n" + lines + "\n]\n")  # one request a line
    counts = {k: sum(r["kind"] == k for r in items) for k in KINDS}
    print(f"{name}: {len(items)} {counts}")


def main() -> None:
    rows = parse((HERE / "queries.txt").read_text())
    check(rows, "catalog_all.json")
    base = split_rows(rows, "", "queries.txt")
    extra_rows = parse((HERE / "queries_xl.txt").read_text())
    check(rows + extra_rows, "catalog_xl.json")
    extra = split_rows(extra_rows, "xl-", "queries_xl.txt")
    groups = json.loads((HERE / "equivalents.json").read_text())["groups"]
    overlapping = {name for group in groups.values() for name in group}
    for split in ("dev", "test"):
        write(f"queries_{split}.json", base[split])
        kept = [r for r in base[split] if not overlapping & set(r["golden_function_names"])]
        write(f"queries_xl_{split}.json", kept + extra[split])
    steps_rows = parse((HERE / "queries_steps.txt").read_text())
    check(rows + steps_rows, "catalog_steps.json")
    steps = split_random(steps_rows, "steps-", "queries_steps.txt", STEPS_SEED)
    groups = json.loads((HERE / "equivalents_steps.json").read_text())["groups"]
    overlapping = {name for group in groups.values() for name in group}
    if overlapping & {g for r in steps_rows for g in r["golden_function_names"]}:
        raise SystemExit("queries_steps.txt: a gold tool is in equivalents_steps.json")
    for split in ("dev", "test"):
        kept = [r for r in base[split] if not overlapping & set(r["golden_function_names"])]
        write(f"queries_steps_{split}.json", kept + steps[split])


if __name__ == "__main__":
    main()
