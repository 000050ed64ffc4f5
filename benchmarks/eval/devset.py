"""Our own dev sets (benchmarks/data/devset_<catalog>.json): queries written by us, in the style
a real user types, over the ToolLinkOS and ToolSandbox catalogs. They are for tuning (with the
ToolLinkOS dev half); nothing in them paraphrases a benchmark query.

Each row is in the instances format (`user_query`, `main_golden_function_name`,
`golden_function_names`) plus `supplies`: the main tool's parameters whose value the query states.
The golden set is built by rule from the catalog, never by hand: the main tool's dependency
closure (depth <= 5) minus the PARAMETER_* dependencies of the main tool whose parameter the
query supplies, and what is reachable only through them (`supplied_set.golden_set`).
`python -m benchmarks.eval.devset [DATASETS_DIR]` rebuilds the golden lists from the catalogs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from benchmarks import DATA
from benchmarks.eval import datasets
from benchmarks.eval.supplied_set import golden_set
from kg_tools.errors import CatalogError

DATA_DIR = DATA
CATALOGS = ("toollinkos", "toolsandbox")


def path(catalog: str) -> Path:
    return DATA_DIR / f"devset_{catalog}.json"


def with_golden(rows: list[dict], catalog_tools: list[dict], where: str) -> list[dict]:
    """The rows with `golden_function_names` rebuilt by the rule (sorted, main first)."""
    tools = {t["name"]: t for t in catalog_tools}
    out, problems = [], []
    for n, row in enumerate(rows):
        main, supplies = row["main_golden_function_name"], list(row.get("supplies") or [])
        if main not in tools:
            problems.append(f"row {n}: unknown main tool {main}")
            continue
        unknown = sorted(set(supplies) - {p["name"] for p in tools[main].get("parameters") or []})
        if unknown:
            problems.append(f"row {n}: {main} has no parameter(s) {unknown}")
            continue
        gold = golden_set(tools, main, set(supplies))
        out.append(
            {
                "user_query": row["user_query"],
                "main_golden_function_name": main,
                "supplies": supplies,
                "golden_function_names": [main, *sorted(gold - {main})],
            }
        )
    if problems:
        raise CatalogError(f"{where}: {len(problems)} bad row(s)", problems)
    return out


def rebuild(datasets_dir: Path) -> None:
    for catalog in CATALOGS:
        tools = getattr(datasets, catalog)(Path(datasets_dir) / catalog).tools
        rows = json.loads(path(catalog).read_text())
        path(catalog).write_text(
            json.dumps(with_golden(rows, tools, str(path(catalog))), indent=1, ensure_ascii=False) + "\n"
        )
        print(f"{path(catalog)}: {len(rows)} queries")


if __name__ == "__main__":
    from kg_tools.settings import Settings

    rebuild(Path(sys.argv[1]) if len(sys.argv) > 1 else Settings().datasets_dir)
