"""`kg-tools core detect`: the generic utilities of the graph's catalogs stored as :Core tools.

kg_tools/utilities.py decides which tools are utilities; this module reads the tools (cypher/core_candidates),
compares with what the graph holds and, with `apply`, writes the difference in ONE transaction that holds
the write lock (kg_tools/write_lock.py): a utility becomes :Core (func_type 'core') with `core_kind`,
`core_reason` and `core_source` 'detected' (cypher/core_set); a tool detection made :Core earlier that is no
longer a utility goes back to :Regular (cypher/core_unset). A tool its catalog made core (func_type 'core'
in the catalog) stays :Core whatever detection says: it gets `core_source` 'catalog' and, when detection
recognises it, the kind and reason. Running it again changes nothing. A load that rewrites a tool rewrites
its kind from the catalog (cypher/upsert_tools): run detection again after a load.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import Field, PrivateAttr, ValidationError, computed_field

from kg_tools.cypher import query
from kg_tools.errors import CatalogNotFoundError
from kg_tools.graph import Graph
from kg_tools.results import Result
from kg_tools.tool_spec import ToolSpec
from kg_tools.utilities import CatalogTool, Kind, classify_catalog
from kg_tools.write_lock import serialized

CATALOG_REASON = "core in its catalog (func_type 'core')"


class CoreTool(Result):
    name: str
    catalog: str | None = None
    core_kind: Kind | None = Field(None, description="The utility kind (null: core in its catalog, kind unknown).")
    core_reason: str
    core_source: Literal["detected", "catalog"]
    action: Literal["add", "update", "keep"] = Field(
        description="add: becomes :Core; update: already :Core, kind/reason/source change; keep: unchanged."
    )


class CoreDetection(Result):
    catalog: str | None = None
    applied: bool = Field(description="False: a dry run, nothing written.")
    tools: int = Field(description="Tools classified.")
    core: list[CoreTool] = Field(description="The :Core tools after detection (detected and catalog's).")
    removed: list[str] = Field(description="Tools detection had made :Core that go back to :Regular.")
    _removed_refs: list[dict[str, str]] = PrivateAttr(default_factory=list)  # their (catalog, name), for core_unset

    @computed_field(description="Tools whose kind or Core facts change (or would, in a dry run).")  # type: ignore[prop-decorator]
    @property
    def changes(self) -> int:
        return sum(t.action != "keep" for t in self.core) + len(self.removed)


def _spec(row: dict) -> ToolSpec | None:
    """The stored spec as a ToolSpec (None when it is not one: such a tool is never a utility)."""
    try:
        raw = json.loads(row["spec"]) if row["spec"] else {"name": row["name"], "description": row["description"]}
        return ToolSpec.model_validate({**raw, "name": row["name"]})
    except (ValueError, ValidationError, TypeError):
        return None


def _utilities(rows: list[dict]) -> dict[tuple[str, str], Any]:
    """The utilities among `rows`, classified catalog by catalog (a catalog is a namespace: the same
    name may be a tool of several), keyed by (catalog, name)."""
    by_catalog: dict[str, list[CatalogTool]] = {}
    for r in rows:
        if (spec := _spec(r)) is not None:
            by_catalog.setdefault(r["catalog"], []).append(CatalogTool(spec, r["catalog"], r["dependents"]))
    return {
        (catalog, name): utility
        for catalog, tools in by_catalog.items()
        for name, utility in classify_catalog(tools).items()
    }


def plan(rows: list[dict], catalog: str | None, applied: bool) -> CoreDetection:
    """What detection makes of `rows` (cypher/core_candidates): the :Core tools and the tools to revert."""
    utilities = _utilities(rows)
    core, removed, removed_refs = [], [], []
    for r in rows:
        utility = utilities.get((r["catalog"], r["name"]))
        if r["func_type"] == "core" and r["core_source"] != "detected":
            kind, reason, source = (
                (utility.kind, utility.reason, "catalog") if utility else (None, CATALOG_REASON, "catalog")
            )
        elif utility is not None:
            kind, reason, source = utility.kind, utility.reason, "detected"
        else:
            if r["core_source"] == "detected":
                removed.append(r["name"])
                removed_refs.append({"catalog": r["catalog"], "name": r["name"]})
            continue
        same = (r["core_kind"], r["core_reason"], r["core_source"]) == (kind, reason, source)
        action = "add" if r["func_type"] != "core" else "keep" if same else "update"
        core.append(
            CoreTool(
                name=r["name"],
                catalog=r["catalog"],
                core_kind=kind,
                core_reason=reason,
                core_source=source,
                action=action,
            )
        )
    result = CoreDetection(catalog=catalog, applied=applied, tools=len(rows), core=core, removed=removed)
    result._removed_refs = removed_refs
    return result


def detect(graph: Graph, catalog: str | None = None, apply: bool = False) -> CoreDetection:
    """Detect the utilities of one catalog (or all) and, with `apply`, store them (see the module doc).
    A catalog with no tools is a CatalogNotFoundError."""
    result = plan(graph.read(query("core_candidates"), catalog=catalog), catalog, applied=apply)
    if apply and result.changes:  # nothing to change: nothing written (not even the lock)

        def work(tx) -> CoreDetection:  # read again under the lock: what a concurrent write changed counts
            found = plan(tx.run(query("core_candidates"), catalog=catalog).data(), catalog, applied=True)
            rows = [
                {
                    "catalog": t.catalog,
                    "name": t.name,
                    "kind": t.core_kind,
                    "reason": t.core_reason,
                    "source": t.core_source,
                }
                for t in found.core
                if t.action != "keep"
            ]
            if rows:
                tx.run(query("core_set"), rows=rows).consume()
            if found.removed:
                tx.run(query("core_unset"), tools=found._removed_refs).consume()
            return found

        result = serialized(graph, work)
    if catalog is not None and result.tools == 0:
        raise CatalogNotFoundError(catalog)
    return result
