"""The live dependency expansion (every request the precomputed closure cannot answer: other edge
types, prefer_direct, dropped parameters, a depth below 5, d_limit above the closure, and
`GET /v1/tools/{name}/dependencies`), ordered in Python with bounded work.

cypher/expand_paths.cypher returns each seed's reachable subgraph (`reach`: its sources and the
outgoing dependency edges of every tool within depth - 1 hops, found breadth-first, each tool once).
`complete` turns it into the `deps` the pipeline reads, with the semantics of
cypher/expand_paths_enumerated.cypher: simple paths from the seed or a tool merged into it, up to
`depth` edges, of the allowed types and not through a dropped parameter, in order of their per-edge
keys (kg_tools.closure.edge_key: indirect penalty, listing order, then a total tie-break), each reached tool mapped to its canonical tool, first
occurrence wins, the seed left out, cut to d_limit. The walk is kg_tools.closure's: a tool is walked
again only with more depth left, so the work is at most depth x edges, never the number of paths
(which is exponential in the density: a catalog where every tool depends on every other one
exhausted Neo4j's transaction memory when Cypher enumerated them).

`DependencyExpansion` is the one interface every caller expands seeds through: the default
one-round-trip search, the seed cache's light path and warm-up, the staged `Expand`, and
`GET /v1/tools/{name}/dependencies`."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kg_tools.closure import edge_key, first_dependencies
from kg_tools.cypher import query
from kg_tools.retrieval import queries
from kg_tools.retrieval.supplied import supplied_parameter_patterns

if TYPE_CHECKING:
    from kg_tools.retrieval.request import RetrievalRequest

Read = Callable[..., list[dict]]
ReadVersioned = Callable[[str, dict], tuple[list[dict], str]]
# One seed with its dependencies: name, func_type, spec, score, members, deps (and rank from a search).
Row = dict[str, Any]


def _allowed(edge: dict, types: set[str], dropped: list[re.Pattern]) -> bool:
    if edge["type"] not in types:
        return False
    name = edge.get("parameter_name")
    return not (edge["type"].startswith("PARAMETER_") and name is not None and any(p.fullmatch(name) for p in dropped))


def order(seed: str, reach: dict, depth: int, expansion: dict) -> list[tuple[str, Any]]:
    """(dependency name, via edge) in expansion order, from one seed's `reach`."""
    types = set(expansion["edge_types"])
    # Neo4j's `=~` matches the whole string (Java regex); the patterns are plain (supplied.py).
    dropped = [re.compile(p) for p in expansion["drop_parameter_patterns"]]
    prefer_direct = expansion["prefer_direct"]
    out: dict[str, list[tuple[tuple, str, dict]]] = defaultdict(list)
    merged_into: dict[str, str] = {}
    for edge in reach["edges"]:
        if edge.get("canonical"):
            merged_into[edge["target"]] = edge["canonical"]
        if _allowed(edge, types, dropped):
            out[edge["source"]].append((edge_key(edge, prefer_direct), edge["target"], edge))
    for targets in out.values():
        targets.sort(key=lambda t: t[0])
    return first_dependencies(out, merged_into, seed, list(reach["sources"]), depth, expansion["d_limit"])


def complete(rows: list[dict], depth: int, expansion: dict, read: Read) -> list[dict]:
    """Fill `deps` of the rows that carry a `reach` (one extra query for the listed tools' fields);
    every row loses its `reach` key. Rows from the closure or of depth 0 pass unchanged."""
    pending: list[tuple[dict, list[tuple[str, str | None, Any]]]] = []  # (row, [(dep name, its catalog, via)])
    for row in rows:
        if row.get("deps") is None and row.get("reach") is not None:
            catalogs = _catalogs(row["reach"])
            reached = order(row["name"], row["reach"], depth, expansion)
            pending.append((row, [(name, catalogs.get(name, row.get("catalog")), via) for name, via in reached]))
    wanted = sorted({(name, catalog) for _, listed in pending for name, catalog, _ in listed}, key=str)
    tools = [{"name": name, "catalog": catalog} for name, catalog in wanted]
    details = {(r["name"], r["catalog"]): r for r in read(query("expand_details"), {"tools": tools})} if tools else {}
    for row, ordered in pending:
        listed = [(name, via, details.get((name, catalog))) for name, catalog, via in ordered]
        row["deps"] = [
            {
                "name": name,
                "catalog": detail["catalog"],
                "func_type": detail["func_type"],
                "spec": detail["spec"],
                "members": detail["members"],
                "via": {
                    "from": via["source"],
                    "type": via["type"],
                    "parameter_name": via["parameter_name"],
                    "reason": via["reason"],
                    "inferred": via.get("inferred", False),
                    "confidence": via.get("confidence"),
                },
            }
            for name, via, detail in listed
            if detail is not None
        ]
    for row in rows:
        row.pop("reach", None)
        if row.get("deps") is None:
            row["deps"] = []
    return rows


def _catalogs(reach: dict) -> dict[str, str | None]:
    """The catalog of each tool a reach's edges lead to (a tool or the one it is merged into)."""
    out = {e["target"]: e.get("target_catalog") for e in reach["edges"]}
    out.update({e["canonical"]: e.get("canonical_catalog") for e in reach["edges"] if e.get("canonical")})
    return out


@dataclass(frozen=True)
class DependencyExpansion:
    """The dependency expansion of one request (depth and queries.expand_params()), reading through
    `read` (and `read_versioned` where the seed cache needs the graph version the read saw). The
    precomputed closure answers the default expansion; every other one is walked live (`complete`)."""

    depth: int
    params: dict[str, Any]
    read: Read
    read_versioned: ReadVersioned | None = None

    @classmethod
    def of_request(
        cls, request: RetrievalRequest, read: Read, read_versioned: ReadVersioned | None = None
    ) -> DependencyExpansion:
        params = queries.expand_params(
            edge_types=[t.value for t in request.edge_types] if request.edge_types else None,
            prefer_direct=request.prefer_direct,
            drop_parameter_patterns=(
                supplied_parameter_patterns(request.query) if request.skip_supplied_parameters else []
            ),
            d_limit=request.d_limit or request.K,
        )
        return cls(request.depth, params, read, read_versioned)

    @property
    def d_limit(self) -> int:
        return int(self.params["d_limit"])

    @property
    def from_closure(self) -> bool:
        """Read from the precomputed closures (the rows the seed cache may keep)."""
        return queries.uses_closure(self.depth, self.params)

    def of_seeds(self, seeds: list[dict]) -> list[Row]:
        """The rows of seeds chosen by the caller ([{name, score}], best first), in their order."""
        return self._complete(self.read(*queries.expand(self.depth, seeds, self.params)))

    def of_seeds_versioned(self, seeds: list[dict]) -> tuple[list[Row], str]:
        return self._versioned(*queries.expand(self.depth, seeds, self.params))

    def with_search_versioned(self, mode: str, search: dict) -> tuple[list[Row], str]:
        """One round trip: the search (queries.search_params()), canonical seeds, their rows; and the
        graph version the read saw."""
        return self._versioned(*queries.search_expand(mode, self.depth, search, self.params))

    def _versioned(self, cypher: str, params: dict) -> tuple[list[Row], str]:
        if self.read_versioned is None:
            raise TypeError("this expansion was built without a versioned read")
        rows, version = self.read_versioned(cypher, params)
        return self._complete(rows), version

    def _complete(self, rows: list[dict]) -> list[Row]:
        return complete(rows, self.depth, self.params, self.read)
