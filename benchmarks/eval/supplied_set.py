"""Our own test set for skip_supplied_parameters (benchmarks/data/supplied_parameters.json).

ToolLinkOS's published golden sets never drop a dependency because the user supplied its
parameter, so the option cannot show there. These queries (written by us over ToolLinkOS tools)
label which of the main tool's parameters the query states; the golden set follows the dataset's
generation rule: the main tool plus its dependency closure (depth <= 5), where a PARAMETER_* edge of
the main tool whose parameter the query supplies is not followed.
"""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import DATA as BENCHMARK_DATA
from benchmarks.eval.datasets import EvalDataset, EvalInstance
from kg_tools.errors import CatalogError
from kg_tools.tool_spec import normalise_dependency_type

DATA = BENCHMARK_DATA / "supplied_parameters.json"
MAX_DEPTH = 5


def golden_set(tools: dict[str, dict], main: str, supplies: set[str], depth: int = MAX_DEPTH) -> frozenset[str]:
    gold, frontier = {main}, [main]
    for _ in range(depth):
        nxt = []
        for name in frontier:
            for dep in tools[name].get("depends_on") or []:
                dtype = normalise_dependency_type(dep.get("dependence_type", ""))
                params = {p.strip() for p in (dep.get("parameter_name") or "").split(",") if p.strip()}
                if name == main and dtype is not None and dtype.is_parameter and params & supplies:
                    continue
                if dep["name"] not in gold:
                    gold.add(dep["name"])
                    nxt.append(dep["name"])
        frontier = nxt
    return frozenset(gold)


def load(catalog_tools: list[dict], catalog: str, path: Path = DATA) -> tuple[EvalDataset, list[bool]]:
    """The set as an EvalDataset over the given catalog, and per instance whether it supplies a parameter."""
    data = json.loads(Path(path).read_text())
    tools = {t["name"]: t for t in catalog_tools}
    instances, supplying, problems = [], [], []
    for n, row in enumerate(data["instances"]):
        main, supplies = row["main"], set(row.get("supplies") or [])
        if main not in tools:
            problems.append(f"instance {n}: unknown main tool {main}")
            continue
        params = {p["name"] for p in tools[main].get("parameters") or []}
        if supplies - params:
            problems.append(f"instance {n}: {main} has no parameter(s) {sorted(supplies - params)}")
            continue
        instances.append(EvalInstance(row["query"], golden_set(tools, main, supplies), main))
        supplying.append(bool(supplies))
    if problems:
        raise CatalogError(f"{path}: {len(problems)} bad instance(s)", problems)
    return EvalDataset(catalog, catalog_tools, instances, [str(path)]), supplying
