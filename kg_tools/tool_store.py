"""Single-tool reads and writes (used by the REST API): list, get, dependencies, put, delete.

A tool is (catalog, name): every method takes the name and an optional catalog. Without one, a name
one catalog holds is that tool; a name several hold is an AmbiguousToolError (409 listing them); a PUT
of a name no catalog holds creates it in DEFAULT_CATALOG. Writes to a gateway's catalog are refused
(kg_tools.catalog_store.check_writable).

One tool is read and written through the neomodel classes (kg_tools.ogm) on the graph's one driver;
lists and the dependency expansion through cypher/ files with $parameters. A PUT validates and embeds as
`kg-tools load` does and writes the node (Core or Regular) and its hand-written outgoing edges with
neomodel; a DELETE deletes the node with neomodel. Both run in ONE transaction that holds the graph's
write lock (kg_tools/write_lock.py), with the same checks as a load (dependency targets that exist in
the tool's catalog), the closures they affect recomputed and the catalog's PUT recorded in it: a PUT and a
DELETE of one tool run one after the other, and a PUT's answer is what its own transaction wrote.
A tool a load has staged but not switched in (kg_tools/staged_load.py) is invisible to both: a
DELETE of it is a 404, a PUT a 409 while that load may run (`unstage`), and never a dependency target.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from kg_tools import catalog_store, closure, ogm, staged_load
from kg_tools.cypher import query
from kg_tools.embeddings import Embedder
from kg_tools.errors import (
    AmbiguousToolError,
    CatalogBusyError,
    CatalogError,
    DanglingReferenceError,
    ToolConflictError,
    ToolNotFoundError,
)
from kg_tools.graph import Graph
from kg_tools.ingest import DEFAULT_CATALOG, tool_row
from kg_tools.results import Result
from kg_tools.retrieval import queries
from kg_tools.retrieval.expansion import DependencyExpansion
from kg_tools.retrieval.functions import openai_function
from kg_tools.retrieval.request import Via
from kg_tools.tool_spec import (
    check_catalog_name,
    clip,
    lone_surrogate,
    normalise_name,
    skeleton,
    tool_document,
    validate_catalog,
)

# What real catalogs carry besides the ToolLinkOS fields (kg_tools.tool_spec.ToolSpec), shown at the top level.
SPEC_FACTS = ("title", "annotations", "output_schema", "http", "strict")
# The node properties a PUT writes: those of cypher/upsert_tools.cypher (a load), from kg_tools.ingest.tool_row.
NODE_PROPERTIES = (
    "name",
    "description",
    "func_type",
    "name_words",
    "param_text",
    "spec",
    "spec_hash",
    "catalog",
    "field",
    "title",
    "http_method",
    "http_path",
    "tags",
    "deprecated",
    "has_output_schema",
    "read_only_hint",
    "destructive_hint",
    "idempotent_hint",
    "open_world_hint",
    "embedding",
    "embedding_model",
)
# What `kg-tools core detect` stores (kg_tools/core_tools.py); a PUT clears them, as a load does.
CORE_PROPERTIES = ("core_kind", "core_reason", "core_source")
# The properties of a hand-written dependency edge (cypher/create_dependencies.cypher).
EDGE_PROPERTIES = ("ord", "reason", "parameter_name", "original_type")


# -- what the store returns (the REST API serves these models as they are: api/schemas.py) --------------

Kind = Literal["core", "regular"]


class ToolSummary(Result):
    name: str
    kind: Kind
    description: str | None = ""
    catalog: str | None = None


class ToolPage(Result):
    total: int = Field(description="Tools matching the filters (all pages).")
    offset: int
    limit: int
    tools: list[ToolSummary]


class ToolDetail(Result):
    name: str
    kind: Kind
    catalog: str | None = None
    spec: dict[str, Any] = Field(description="The tool's original catalog JSON, unchanged.")
    function: dict[str, Any] = Field(description="OpenAI function-calling schema.")
    title: str | None = Field(None, description="A display name (MCP `title`).")
    annotations: dict[str, Any] | None = Field(
        None,
        description="MCP tool annotations as the server sent them (readOnlyHint, destructiveHint, "
        "idempotentHint, openWorldHint, title).",
    )
    output_schema: dict[str, Any] | None = Field(
        None,
        description="JSON Schema of the result: MCP `outputSchema`, or the 2xx JSON response of an OpenAPI "
        "operation ($refs resolved, size-capped).",
    )
    http: dict[str, Any] | None = Field(
        None,
        description="OpenAPI operations: method, path, operation_id, tags, deprecated, links, response_status, "
        "request_media_type (how the body is encoded), response_media_type (a 2xx answer that is not JSON).",
    )
    strict: bool | None = Field(None, description="OpenAI function `strict` flag.")
    core_kind: str | None = Field(
        None,
        description="A :Core utility's kind (file_write, file_read, fetch_url, web_search, run_command, "
        "convert_document), from `kg-tools core detect`; null otherwise.",
    )
    core_reason: str | None = Field(None, description="Why the tool is a :Core utility (`kg-tools core detect`).")
    core_source: str | None = Field(
        None, description="'detected' (made :Core by `kg-tools core detect`) or 'catalog' (core in its catalog)."
    )


class Dependency(Result):
    name: str
    kind: Kind
    via: Via
    members: list[str] = Field(default_factory=list)


class DependencyList(Result):
    name: str
    catalog: str | None = None
    depth: int
    dependencies: list[Dependency] = Field(description="Depth-first, unique: what retrieval adds after this seed.")


class PutResult(Result):
    created: bool
    tool: ToolDetail
    warnings: list[str] = Field(default_factory=list)


def _kind(func_type: str | None) -> Kind:
    return "core" if func_type == "core" else "regular"


@dataclass
class ToolStore:
    graph: Graph

    # -- reads -----------------------------------------------------------------------------
    def list_tools(
        self, offset: int = 0, limit: int = 50, catalog: str | None = None, kind: str | None = None
    ) -> ToolPage:
        row = self.graph.read(query("list_tools"), offset=offset, limit=limit, catalog=catalog, kind=kind)[0]
        tools = [ToolSummary(**{**t, "kind": _kind(t["kind"])}) for t in row["page"]]
        return ToolPage(total=row["total"], offset=offset, limit=limit, tools=tools)

    def resolve(self, name: str, catalog: str | None, *, create: bool = False) -> str:
        """The catalog of the tool `name`: `catalog` when given, else the one catalog that holds the name
        (several: AmbiguousToolError; none: ToolNotFoundError, or DEFAULT_CATALOG when `create`)."""
        if catalog is not None:
            return catalog
        found = [r["catalog"] for r in self.graph.read(query("tool_catalogs"), name=name)]
        if len(found) > 1:
            raise AmbiguousToolError(name, found)
        if found:
            return found[0]
        if create:
            return DEFAULT_CATALOG
        raise ToolNotFoundError(name)

    def get_tool(self, name: str, catalog: str | None = None) -> ToolDetail:
        """One tool, read through the neomodel classes (kg_tools.ogm); a tool of a catalog version not
        switched in yet is not found."""
        catalog = self.resolve(name, catalog)
        tool = ogm.read(self.graph, lambda: live_tool(name, catalog))
        if tool is None:
            raise ToolNotFoundError(name, catalog)
        return _detail(
            {
                "name": tool.name,
                "func_type": tool.func_type,
                "catalog": tool.catalog,
                "spec": tool.spec,
                "description": tool.description,
                **{key: getattr(tool, key) for key in CORE_PROPERTIES},
            }
        )

    def dependencies(
        self, name: str, depth: int, edge_types: list[str] | None = None, catalog: str | None = None
    ) -> DependencyList:
        """What retrieval would add after this tool as a seed: depth-first, unique, with the edge used."""
        catalog = self.get_tool(name, catalog).catalog  # 404 (409 when ambiguous) before anything else
        params = queries.expand_params(edge_types=edge_types, d_limit=100_000)
        seed = {"name": name, "catalog": catalog, "score": None}
        rows = DependencyExpansion(depth, params, self.graph.read).of_seeds([seed])
        deps = rows[0]["deps"] if rows else []
        return DependencyList(
            name=name,
            catalog=catalog,
            depth=depth,
            dependencies=[
                Dependency(
                    name=d["name"], kind=_kind(d["func_type"]), via=d["via"], members=sorted(d.get("members") or [])
                )
                for d in deps
            ],
        )

    # -- writes ----------------------------------------------------------------------------
    def put_tool(
        self, name: str, raw: Any, embedder: Embedder, catalog: str | None = None, takeover: bool = False
    ) -> PutResult:
        """Create or replace the tool (catalog, name): validate, embed, then node + outgoing edges in ONE
        write-lock transaction (`_write_tool`). `catalog` None: the one catalog that holds the name, else
        DEFAULT_CATALOG (several: AmbiguousToolError). A dependency target is the tool of that name in the
        same catalog; where the catalog has none, the one tool of that name elsewhere (a bare name, as
        everywhere; several: AmbiguousToolError). `takeover` is accepted and does nothing (names are per catalog). Returns what that transaction
        wrote (created, tool, warnings); a failure changes nothing."""
        del takeover  # kept for callers written before names were per catalog
        name = _check_body(name, raw)
        catalog = check_catalog_name(catalog) if catalog is not None else None
        catalog = self.resolve(name, catalog, create=True) if not lone_surrogate(name) else catalog or DEFAULT_CATALOG
        catalog_store.check_writable(self.graph, catalog)
        deps = raw.get("depends_on")
        targets = [d.get("name") for d in deps if isinstance(d, dict)] if isinstance(deps, list) else []
        names = [n for n in [name, *targets] if isinstance(n, str) and not lone_surrogate(n)]
        found = self.graph.read(query("existing_tools"), catalog=None, names=names)
        if any(r["staged"] and r["name"] == name and r["catalog"] == catalog for r in found):
            unstage(self.graph, name, catalog)  # 409 while its load runs; a dead load's leftovers go
        where = target_catalogs(catalog, [r for r in found if not r["staged"]])  # a staged target is not a tool
        validated = validate_catalog([raw], known_names=set(where), catalog_names=self._look_alikes(name, catalog))
        spec = validated.specs[0]
        row = tool_row(spec, raw, catalog)
        row["embedding"] = embedder.embed([tool_document(spec)])[0].tolist()
        row["embedding_model"] = embedder.name
        edges = [e.as_row() for e in validated.edges]
        created = ogm.write(self.graph, lambda tx: _write_tool(tx, row, edges, where))
        return PutResult(created=created, tool=_detail(row), warnings=validated.report.warnings)

    def _look_alikes(self, name: str, catalog: str) -> set[str]:
        """The tools of the catalog the PUT writes into whose names could look like `name`: validation
        refuses a look-alike, as an import does."""
        if not name or lone_surrogate(name):
            return set()  # refused by the validation anyway
        rows = self.graph.read(
            query("catalog_lookalike_candidates"), catalog=catalog, skeleton=skeleton(name), ascii=r"\p{ASCII}*"
        )
        return {r["name"] for r in rows}

    def delete_tool(self, name: str, catalog: str | None = None) -> None:
        """Delete the node and all its relationships (in and out), and recompute the closures that listed it."""
        catalog = self.resolve(name, catalog)
        catalog_store.check_writable(self.graph, catalog)

        def work(tx) -> bool:
            tool = live_tool(name, catalog)
            if tool is None:
                return False  # also a tool a load has staged and not switched in: not ours to delete
            targets = set(closure.affected(tx, [name])) - {(catalog, name)}  # through closures: before deleting
            tool.delete()
            closure.refresh(tx, targets=targets)
            return True

        if not ogm.write(self.graph, work):
            raise ToolNotFoundError(name, catalog)


def _check_body(name: str, raw: Any) -> str:
    """The normalised name of a PUT whose body is one tool object naming the path's tool (else 422 / 409)."""
    if not isinstance(raw, dict):
        raise CatalogError("the request body must be one tool object", [f"got {type(raw).__name__}"])
    name = normalise_name(name)
    body_name = raw.get("name")
    if isinstance(body_name, str) and body_name.strip() and normalise_name(body_name) != name:
        # RFC 9110 (PUT): a representation inconsistent with the target resource is a 409.
        raise ToolConflictError(
            "the tool name in the body must match the path",
            [f"name: body has {clip(body_name.strip())}, path has {clip(name)}"],
        )
    return name


def target_catalogs(catalog: str, found: list[dict]) -> dict[str, str]:
    """name -> the catalog of the tool a dependency on `name` from catalog `catalog` means: its own
    catalog's, else the one other catalog's; a name several other catalogs hold is an AmbiguousToolError."""
    by_name: dict[str, list[str]] = {}
    for r in found:
        by_name.setdefault(r["name"], []).append(r["catalog"])
    out = {}
    for name, held in by_name.items():
        if catalog in held or len(held) == 1:
            out[name] = catalog if catalog in held else held[0]
        else:
            raise AmbiguousToolError(name, sorted(held))
    return out


def _write_tool(tx, row: dict[str, Any], edges: list[dict[str, Any]], where: dict[str, str]) -> bool:
    """One tool's node and hand-written outgoing edges through neomodel, in the write-lock transaction `tx`
    (ogm.write), as a load writes them (cypher/upsert_tools.cypher, delete_outgoing_dependencies,
    create_dependencies): an unchanged edge is kept as it is (closures reference its element id), inferred
    edges are left to their run. Returns whether the tool was created."""
    name, catalog = row["name"], row["catalog"]
    tool = ogm.Tool.nodes.get_or_none(catalog=catalog, name=name)
    if tool is not None and not tool.live:  # staged by a load since put_tool checked: leave it to the load
        raise CatalogBusyError(
            f"tool {name!r} is being loaded into catalog {catalog!r} (version {tool.version}, not switched "
            f"in yet); nothing written, try again when that load has finished"
        )
    targets = _edge_targets(where, name, edges)
    created = tool is None
    tool = _save_node(tx, tool, row)
    _write_edges(tx, tool, edges, targets)
    closure.refresh(tx, [name])
    catalog_store.record(tx, catalog, kind="put")
    return created


def _edge_targets(where: dict[str, str], name: str, edges: list[dict[str, Any]]) -> dict[str, ogm.Tool]:
    """The live tools the edges point to (`where`: name -> catalog, from target_catalogs); a
    DanglingReferenceError naming any that is gone."""
    targets = {n: live_tool(n, where[n]) for n in sorted({e["target"] for e in edges})}
    missing = [n for n, t in targets.items() if t is None]
    if missing:  # e.g. deleted by another request since the validation read them
        raise DanglingReferenceError(
            f"{len(missing)} dependency target(s) do not exist; nothing written",
            [f"dangling dependency target: {name} -> {m} ({m!r} is not a tool)" for m in missing],
        )
    return {n: t for n, t in targets.items() if t is not None}


def _save_node(tx, tool: ogm.Tool | None, row: dict[str, Any]) -> ogm.Tool:
    """Create the node (Core or Regular) or rewrite its properties and kind label."""
    properties = {k: row[k] for k in NODE_PROPERTIES} | dict.fromkeys(CORE_PROPERTIES)
    kind = ogm.Core if row["func_type"] == "core" else ogm.Regular
    if tool is None:
        return kind(**properties).save()
    for key, value in properties.items():
        setattr(tool, key, value)
    tool.save()
    if not isinstance(tool, kind):
        tx.run(query("tool_set_kind"), catalog=row["catalog"], name=row["name"], core=kind is ogm.Core).consume()
    return tool


def _write_edges(tx, tool: ogm.Tool, edges: list[dict[str, Any]], targets: dict[str, ogm.Tool]) -> None:
    """Replace the tool's hand-written outgoing edges by `edges`, keeping unchanged ones in place."""
    wanted = {(e["type"], e["target"], e["ord"]): e for e in edges}
    for dependency in tool.dependencies:
        if dependency.rel.inferred:
            continue
        edge = wanted.pop((dependency.type, dependency.tool.name, dependency.rel.ord), None)
        if edge is None:
            params = {"catalog": tool.catalog, "name": tool.name, "id": dependency.rel.element_id}
            tx.run(query("delete_dependency_edge"), params).consume()
        else:
            for key in EDGE_PROPERTIES:
                setattr(dependency.rel, key, edge[key])
            dependency.rel.save()
    for edge in wanted.values():
        tool.depends_on(edge["type"]).connect(targets[edge["target"]], {k: edge[k] for k in EDGE_PROPERTIES})


def live_tool(name: str, catalog: str) -> ogm.Tool | None:
    """The tool (catalog, name) unless a load has staged it and not switched it in (neomodel, in a transaction)."""
    tool = ogm.Tool.nodes.get_or_none(catalog=catalog, name=name)
    return tool if tool is not None and tool.live else None


def unstage(graph: Graph, name: str, catalog: str) -> None:
    """A PUT of a name a load of `catalog` staged: a CatalogBusyError (409) while that load may still run;
    once it is dead (kg_tools/staged_load.prepare), its leftovers are removed and the PUT creates the tool."""
    try:
        staged_load.prepare(graph, catalog)
    except CatalogBusyError as exc:
        raise CatalogBusyError(f"tool {name!r} is part of a load not switched in yet; nothing written: {exc}") from exc


def _detail(t: dict) -> ToolDetail:
    """A tool as the API shows it, from its stored properties (name, func_type, catalog, spec, description,
    core_kind, core_reason, core_source)."""
    spec = json.loads(t["spec"]) if t["spec"] else {"name": t["name"], "description": t["description"] or ""}
    return ToolDetail(
        name=t["name"],
        kind=_kind(t["func_type"]),
        catalog=t["catalog"],
        spec=spec,
        function=openai_function(spec),
        **{k: spec.get(k) for k in SPEC_FACTS},
        # shown for a :Core tool only: a load or PUT that made it regular leaves nothing stale on show
        **({k: t.get(k) for k in CORE_PROPERTIES} if t["func_type"] == "core" else {}),
    )
