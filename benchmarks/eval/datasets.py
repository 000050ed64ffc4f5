"""Benchmarks as (catalog tools, queries with gold sets). Gold sets are sets: order never counts."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from benchmarks import DATA
from kg_tools.errors import CatalogError
from kg_tools.loaders import toollinkos as toollinkos_loader
from kg_tools.loaders import toolsandbox as toolsandbox_loader

SPLIT_DIR = DATA


@dataclass(frozen=True)
class EvalInstance:
    query: str
    gold: frozenset[str]
    main: str | None = None  # the user's goal tool (error analysis); None when the data has none
    kind: str | None = None  # optional query kind (e.g. single, multi, multi-step): rows per kind
    split: str | None = None  # optional dev/test label of the query (eval catalog --split)


@dataclass
class EvalDataset:
    name: str  # also the catalog name in the graph
    tools: list[dict]
    instances: list[EvalInstance]
    files: list[str]

    def limited(self, limit: int | None) -> EvalDataset:
        if not limit:
            return self
        return EvalDataset(self.name, self.tools, self.instances[:limit], self.files)

    def with_queries(self, path: Path) -> EvalDataset:
        """The same catalog with the queries of another file in the instances format."""
        dataset = replace(self, instances=read_instances(path), files=[*self.files, str(path)])
        check_gold_names(dataset)
        return dataset

    def split(self, which: str) -> EvalDataset:
        """The dev or test half (by main tool, benchmarks/data/<name>_split.json), or all queries."""
        if which == "all":
            return self
        if which not in ("dev", "test"):
            raise CatalogError(f"split must be dev, test or all, got {which!r}")
        path = SPLIT_DIR / f"{self.name}_split.json"
        if not path.is_file():
            raise CatalogError(f"{self.name} has no dev/test split (no {path.name}); use --split all")
        mains = set(json.loads(path.read_text())[which])
        unknown = [i.query for i in self.instances if i.main is None]
        if unknown:
            raise CatalogError(f"{self.name}: a split needs main_golden_function_name on every query", unknown[:5])
        return replace(self, instances=[i for i in self.instances if i.main in mains])


def read_instances(path: Path) -> list[EvalInstance]:
    """A file in the instances format: a JSON list, or {"instances": [...]}."""
    try:
        rows = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogError(f"{path}: cannot read a JSON list of instances ({exc})") from exc
    if isinstance(rows, dict):
        rows = rows.get("instances")
    if not isinstance(rows, list):
        raise CatalogError(
            f"{path}: expected a JSON list of instances (user_query, golden_function_names, "
            "optional main_golden_function_name, kind, split)"
        )
    return instances_from_rows(rows, str(path))


def instances_from_rows(rows: list[dict], where: str) -> list[EvalInstance]:
    """ToolLinkOS instance rows: user_query, golden_function_names, main_golden_function_name."""
    out, problems = [], []
    for n, row in enumerate(rows):
        query, gold = row.get("user_query"), row.get("golden_function_names")
        if not isinstance(query, str) or not query.strip() or not isinstance(gold, list) or not gold:
            problems.append(f"instance {n}: needs a non-empty user_query and golden_function_names")
            continue
        kind, split = row.get("kind"), row.get("split")
        if kind is not None and not (isinstance(kind, str) and kind.strip()):
            problems.append(f"instance {n}: kind must be a non-empty string")
            continue
        if split is not None and split not in ("dev", "test"):
            problems.append(f"instance {n}: split must be dev or test, got {split!r}")
            continue
        out.append(
            EvalInstance(
                query.strip(),
                frozenset(gold),
                row.get("main_golden_function_name"),
                kind.strip() if kind else None,
                split,
            )
        )
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
    dataset = EvalDataset(
        source.catalog, source.tools, instances_from_rows(source.instances, str(directory)), source.files
    )
    check_gold_names(dataset)
    return dataset


def toollinkos(directory: Path) -> EvalDataset:
    return _from_loader(toollinkos_loader, Path(directory))


def toolsandbox(directory: Path) -> EvalDataset:
    """ToolSandbox: golden lists are in call order and do not start with the main tool (sets here)."""
    return _from_loader(toolsandbox_loader, Path(directory))
