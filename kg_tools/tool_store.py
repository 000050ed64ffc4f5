"""Single-tool reads and writes (used by the REST API): list, get, dependencies, put, delete.

Everything goes through the graph gateway with cypher/ files and $parameters only; a PUT writes
through `kg_tools.ingest.write_tools`, the same function `kg-tools load` uses. Writes hold the graph's
write lock (kg_tools/write_lock.py): a PUT and a DELETE of one tool run one after the other, and a
PUT's answer is what its own transaction wrote, never a read after it committed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from kg_tools import closure, models
from kg_tools.catalog import check_catalog_name, clip, lone_surrogate, normalise_name, tool_document, validate_catalog
from kg_tools.cypher import query
from kg_tools.embeddings import Embedder
from kg_tools.errors import CatalogError, ToolConflictError, ToolNotFoundError
from kg_tools.graph import Graph
from kg_tools.ingest import DEFAULT_CATALOG, tool_row, write_tools
from kg_tools.retrieval import expansion, queries
from kg_tools.retrieval.functions import openai_function
from kg_tools.write_lock import serialized

# What real catalogs carry besides the ToolLinkOS fields (kg_tools.catalog.ToolSpec), shown at the top level.
SPEC_FACTS = ("title", "annotations", "output_schema", "http", "strict")


def _kind(func_type: str | None) -> str:
    return "core" if func_type == "core" else "regular"


@dataclass
class ToolStore:
    graph: Graph

    # -- reads -----------------------------------------------------------------------------
    def list_tools(
        self, offset: int = 0, limit: int = 50, catalog: str | None = None, kind: str | None = None
    ) -> dict[str, Any]:
        row = self.graph.read(query("list_tools"), offset=offset, limit=limit, catalog=catalog, kind=kind)[0]
        tools = [{**t, "kind": _kind(t["kind"])} for t in row["page"]]
        return {"total": row["total"], "offset": offset, "limit": limit, "tools": tools}

    def get_tool(self, name: str) -> dict[str, Any]:
        """One tool, read through the neomodel classes (kg_tools.models); a tool of a catalog version not
        switched in yet is not found."""

        def live_tool():
            tool = models.Tool.nodes.get_or_none(name=name)
            return tool if tool is not None and tool.live else None  # not a version still being loaded

        tool = models.read(self.graph, live_tool)
        if tool is None:
            raise ToolNotFoundError(name)
        return _detail(
            {
                "name": tool.name,
                "func_type": tool.func_type,
                "catalog": tool.catalog,
                "spec": tool.spec,
                "description": tool.description,
            }
        )

    def dependencies(self, name: str, depth: int, edge_types: list[str] | None = None) -> dict[str, Any]:
        """What retrieval would add after this tool as a seed: depth-first, unique, with the edge used."""
        self.get_tool(name)  # 404 before anything else
        expansion_params = queries.expand_params(edge_types=edge_types, d_limit=100_000)
        rows = expansion.complete(
            self.graph.read(*queries.expand(depth, [{"name": name, "score": None}], expansion_params)),
            depth,
            expansion_params,
            self.graph.read,
        )
        deps = rows[0]["deps"] if rows else []
        return {
            "name": name,
            "depth": depth,
            "dependencies": [
                {
                    "name": d["name"],
                    "kind": _kind(d["func_type"]),
                    "via": d["via"],
                    "members": sorted(d.get("members") or []),
                }
                for d in deps
            ],
        }

    # -- writes ----------------------------------------------------------------------------
    def put_tool(
        self, name: str, raw: Any, embedder: Embedder, catalog: str | None = None, takeover: bool = False
    ) -> dict[str, Any]:
        """Create or replace one tool: validate, embed, then node + outgoing edges in ONE transaction
        (`write_tools`, as a load). `catalog`: a new tool's catalog (default: kept, or DEFAULT_CATALOG);
        naming another catalog than an existing tool's is a NameCollisionError (409) unless `takeover`.
        Returns {"created", "tool", "warnings"} as that transaction wrote them; a failure changes nothing."""
        if not isinstance(raw, dict):
            raise CatalogError("the request body must be one tool object", [f"got {type(raw).__name__}"])
        name = normalise_name(name)
        catalog = check_catalog_name(catalog) if catalog is not None else None
        body_name = raw.get("name")
        if isinstance(body_name, str) and body_name.strip() and normalise_name(body_name) != name:
            # RFC 9110 (PUT): a representation inconsistent with the target resource is a 409.
            raise ToolConflictError(
                "the tool name in the body must match the path",
                [f"name: body has {clip(body_name.strip())}, path has {clip(name)}"],
            )
        deps = raw.get("depends_on")
        targets = [d.get("name") for d in deps if isinstance(d, dict)] if isinstance(deps, list) else []
        names = [n for n in [name, *targets] if isinstance(n, str) and not lone_surrogate(n)]
        known = {r["name"] for r in self.graph.read(query("existing_tools"), names=names)}
        validated = validate_catalog([raw], known_names=known)
        spec = validated.specs[0]
        row = tool_row(spec, raw, catalog)  # catalog None: write_tools keeps the tool's, under its lock
        row["embedding"] = embedder.embed([tool_document(spec)])[0].tolist()
        row["embedding_model"] = embedder.name
        before = write_tools(
            self.graph,
            [row],
            [e.as_row() for e in validated.edges],
            takeover=takeover,
            takeover_how="PUT with takeover=true",
        )[name]
        written = row["catalog"] or before or DEFAULT_CATALOG
        return {
            "created": before is None,
            "tool": _detail({**row, "catalog": written}),
            "warnings": validated.report.warnings,
        }

    def delete_tool(self, name: str) -> None:
        """Delete the node and all its relationships (in and out)."""

        def work(tx) -> int:
            targets = set(closure.affected(tx, [name])) - {name}  # found through closures: before deleting
            deleted = tx.run(query("delete_tool"), name=name).single()["deleted"]
            closure.refresh(tx, targets=targets)
            return deleted

        if not serialized(self.graph, work):
            raise ToolNotFoundError(name)


def _detail(t: dict) -> dict[str, Any]:
    """A tool as the API shows it, from its stored properties (name, func_type, catalog, spec, description)."""
    spec = json.loads(t["spec"]) if t["spec"] else {"name": t["name"], "description": t["description"] or ""}
    return {
        "name": t["name"],
        "kind": _kind(t["func_type"]),
        "catalog": t["catalog"],
        "spec": spec,
        "function": openai_function(spec),
        **{k: spec.get(k) for k in SPEC_FACTS},
    }
