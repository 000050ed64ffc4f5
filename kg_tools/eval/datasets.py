"""Benchmarks as (catalog tools, queries with gold sets). Gold sets are sets: order never counts."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kg_tools.errors import CatalogError


@dataclass(frozen=True)
class EvalInstance:
    query: str
    gold: frozenset[str]
    main: str | None = None  # the user's goal tool (error analysis); None when the data has none


@dataclass
class EvalDataset:
    name: str  # also the catalog name in the graph
    tools: list[dict]
    instances: list[EvalInstance]
    files: list[str]

    def limited(self, limit: int | None) -> "EvalDataset":
        if not limit:
            return self
        return EvalDataset(self.name, self.tools, self.instances[:limit], self.files)


def instances_from_rows(rows: list[dict], where: str) -> list[EvalInstance]:
    """ToolLinkOS instance rows: user_query, golden_function_names, main_golden_function_name."""
    out, problems = [], []
    for n, row in enumerate(rows):
        query, gold = row.get("user_query"), row.get("golden_function_names")
        if not isinstance(query, str) or not query.strip() or not isinstance(gold, list) or not gold:
            problems.append(f"instance {n}: needs a non-empty user_query and golden_function_names")
            continue
        out.append(EvalInstance(query.strip(), frozenset(gold), row.get("main_golden_function_name")))
    if problems:
        raise CatalogError(f"{where}: {len(problems)} malformed instance(s)", problems)
    if not out:
        raise CatalogError(f"{where}: no query instances (instances.json missing or empty)")
    return out


def check_gold_names(dataset: EvalDataset) -> None:
    names = {t.get("name") for t in dataset.tools}
    unknown = sorted({g for i in dataset.instances for g in i.gold | ({i.main} if i.main else set())} - names)
    if unknown:
        raise CatalogError(f"{dataset.name}: golden tools not in the catalog", unknown)


def _from_loader(loader, directory: Path) -> EvalDataset:
    source = loader.load(directory)
    dataset = EvalDataset(source.catalog, source.tools, instances_from_rows(source.instances, str(directory)),
                          source.files)
    check_gold_names(dataset)
    return dataset


def toollinkos(directory: Path) -> EvalDataset:
    from loaders import toollinkos as loader

    return _from_loader(loader, Path(directory))


def toolsandbox(directory: Path) -> EvalDataset:
    """ToolSandbox: golden lists are in call order and do not start with the main tool (sets here)."""
    from loaders import toolsandbox as loader

    return _from_loader(loader, Path(directory))
