"""Response models of the tool endpoints (the retrieval models live in kg_tools.retrieval.request)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kg_tools.catalog import _ALIASES, DEPENDENCY_TYPES, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, TOOL_NAME_PATTERN
from kg_tools.merge.classify import PairDecision  # the classifier's own record, as served
from kg_tools.retrieval.request import Via

Kind = Literal["core", "regular"]


class ToolSummary(BaseModel):
    name: str
    kind: Kind
    description: str | None = ""
    catalog: str | None = None


class ToolPage(BaseModel):
    total: int = Field(description="Tools matching the filters (all pages).")
    offset: int
    limit: int
    tools: list[ToolSummary]


class ToolDetail(BaseModel):
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
        None, description="OpenAPI operations: method, path, operation_id, tags, deprecated, links, response_status."
    )
    strict: bool | None = Field(None, description="OpenAI function `strict` flag.")


class Dependency(BaseModel):
    name: str
    kind: Kind
    via: Via
    members: list[str] = Field(default_factory=list)


class DependencyList(BaseModel):
    name: str
    depth: int
    dependencies: list[Dependency] = Field(description="Depth-first, unique: what retrieval adds after this seed.")


class PutResult(BaseModel):
    created: bool
    tool: ToolDetail
    warnings: list[str] = Field(default_factory=list)


# -- the PUT body, for the OpenAPI schema (the route validates the raw JSON with kg_tools.catalog) --


class ParameterIn(BaseModel):
    model_config = ConfigDict(extra="allow", title="Parameter")
    name: str = Field(min_length=1)
    type: str | None = None
    description: str = ""
    required: bool = False


class DependencyIn(BaseModel):
    model_config = ConfigDict(extra="allow", title="DependencyEdge")
    name: str = Field(
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        pattern=TOOL_NAME_PATTERN,
        description="The tool depended on: it must exist in the graph and not be this tool.",
    )
    dependence_type: Literal[tuple(DEPENDENCY_TYPES + sorted(_ALIASES))] = Field(  # type: ignore[valid-type]
        description="One of the four types (PARAMETER_DEPENDS_ON / TOOL_DEPENDS_ON are read as direct)."
    )
    parameter_name: str | None = None
    reason: str = ""


class ToolIn(BaseModel):
    """One catalog tool (ToolLinkOS schema); other fields are kept in `spec` unchanged."""

    model_config = ConfigDict(extra="allow", title="Tool")
    name: str = Field(
        min_length=1, max_length=MAX_NAME_LENGTH, pattern=TOOL_NAME_PATTERN, description="Must be the name in the path."
    )
    description: str | None = Field("", max_length=MAX_DESCRIPTION_LENGTH)
    parameters: list[ParameterIn] = Field(default_factory=list)
    func_type: Literal["core", "regular"] = "regular"
    depends_on: list[DependencyIn] = Field(default_factory=list)


def tool_body_schema() -> dict[str, Any]:
    """ToolIn's JSON Schema with its sub-schemas inlined (it goes into the operation itself)."""
    schema = ToolIn.model_json_schema()
    defs = schema.pop("$defs", {})

    def inline(node):
        if isinstance(node, dict):
            if "$ref" in node:
                return inline(defs[node["$ref"].split("/")[-1]])
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    return inline(schema)


class CatalogInfo(BaseModel):
    name: str
    tools: int = Field(description="Tools of the catalog.")
    edges: int = Field(description="Dependency edges from its tools (hand-written and inferred).")
    source: str | None = Field(None, description="Where its last load came from (files, MCP server, import, put).")
    created: str | None = Field(None, description="When it was first loaded (ISO 8601, UTC).")
    last_load: str | None = Field(None, description="When its last load, sync, import or PUT was written.")
    last_load_kind: Literal["load", "sync", "import", "put"] | None = None
    version: int | None = Field(None, description="The catalog version readers see (null before any versioned load).")
    pending_version: int | None = Field(
        None, description="The version a running load is writing, not visible yet (null: no load running)."
    )


class CatalogList(BaseModel):
    catalogs: list[CatalogInfo]


class CatalogDeleted(BaseModel):
    catalog: str
    tools: int = Field(description="Tools deleted.")
    edges: int = Field(description="Dependency edges from those tools deleted with them.")
    dependency_runs: int = Field(description="Dependency inference runs of the catalog deleted.")
    merge_runs: int = Field(description="Merge runs of the catalog deleted.")
    detached_edges: int = Field(description="Edges from other catalogs' tools into it removed first.")
    transactions: int = Field(description="Bounded write transactions the delete took (relationships, then tools).")


# -- health --


class Health(BaseModel):
    status: Literal["ok"]


class Readiness(BaseModel):
    status: Literal["ready"]
    ready: bool
    problems: list[str] = Field(description="Empty when ready.")
    indexes: dict[str, str] = Field(description="Index name -> state (ONLINE, POPULATING, FAILED).")


# -- catalog import --


class ImportResult(BaseModel):
    catalog: str
    tools: int = Field(description="Tools in the document.")
    edges: int = Field(description="Hand-written dependency edges in the document.")
    embedded: int = Field(description="Tools embedded (new or changed).")
    embed_seconds: float
    write_seconds: float
    format: str = Field(description="The format the document was read as.")
    warnings: list[str]


# -- dependency inference --


class ProposedEdge(BaseModel):
    source: str
    target: str
    type: str = Field(description="One of the four dependency types.")
    parameter_name: str | None
    confidence: float
    method: str
    reason: str
    ord: int


class InferenceSummary(BaseModel):
    catalog: str | None
    method: str = Field(description="What was used: offline, llm, or llm+offline (some tools fell back).")
    tools: int
    labelled_edges: int = Field(description="Hand-written edges of the catalog (the labelled examples).")
    proposed: int
    by_type: dict[str, int]
    llm_calls: int
    abstained: dict[str, int] = Field(
        default_factory=dict,
        description="Parameters that name an existing instance but were left without a provider, by reason: "
        "no_candidate, below_threshold, hub.",
    )
    notes: list[str]
    edges: list[ProposedEdge]


class AppliedRun(BaseModel):
    run: str
    applied: bool = Field(
        description="False: nothing to apply, or the same run is already applied (or being applied by another request)."
    )
    edges: int = Field(description="Inferred edges written.")
    message: str


class InferResponse(BaseModel):
    results: list[InferenceSummary] = Field(description="One per catalog.")
    runs: list[AppliedRun] = Field(description="With `apply`: one run per catalog; empty otherwise.")


class DependencyRun(BaseModel):
    """A `:DependencyRun` node's properties (kg_tools/deps/store.py) and how many of its edges are left."""

    model_config = ConfigDict(extra="allow")
    id: str
    created: str | None = None
    catalog: str | None = None
    method: str | None = None
    min_confidence: float | None = None
    proposed: int | None = None
    edges: int | None = None
    notes: list[str] | None = None
    status: Literal["pending", "applied"] = Field(
        description="`pending`: being applied now, or left part-way by a crash (its edges are rolled back by the "
        "next apply or undo; docs/concurrency.md)."
    )
    edges_in_graph: int
    stale: bool = Field(description="None of its edges is left (their tools were deleted or rewritten).")


class DependencyRunList(BaseModel):
    runs: list[DependencyRun] = Field(description="Newest first.")


class DependencyRunUndone(BaseModel):
    run: str
    removed: int = Field(description="Inferred edges deleted.")


# -- merges --


class MergeRun(BaseModel):
    """A `:MergeRun` node's properties (kg_tools/merge/store.py) and its MERGED_INTO links in the graph."""

    model_config = ConfigDict(extra="allow")
    id: str
    name: str | None = None
    created: str | None = None
    catalog: str | None = None
    theta: float | None = None
    top_k: int | None = None
    classifier: str | None = None
    validator: str | None = None
    writer: str | None = None
    tools_before: int | None = None
    tools_after: int | None = None
    candidates: int | None = None
    accepted_pairs: int | None = None
    clusters: int | None = None
    merged: int | None = None
    notes: list[str] | None = None
    links: int = Field(description="Its MERGED_INTO links still in the graph.")


class MergeRunList(BaseModel):
    runs: list[MergeRun] = Field(description="Newest first.")


class MergePlanSummary(BaseModel):
    run: str = Field(description="The run id applying this plan would have (the same plan, the same id).")
    theta: float
    top_k: int
    catalog: str | None
    classifier: str
    validator: str
    writer: str
    tools_before: int
    tools_after: int
    candidates: int = Field(description="Candidate pairs compared.")
    accepted_pairs: int
    clusters: int
    merged: int = Field(description="Tools merged into a canonical tool.")
    timing_s: dict[str, float]


class MemberLink(BaseModel):
    name: str
    score: float = Field(description="Best cosine of an accepted pair joining it to its cluster.")
    method: str
    reason: str


class ClusterDetail(BaseModel):
    canonical: str
    members: list[MemberLink]
    description: str
    parameters: list[dict[str, Any]]
    validator: str
    writer: str


class MergePlan(MergePlanSummary):
    notes: list[str]
    clusters_detail: list[ClusterDetail]
    pairs: list[PairDecision] | None = Field(None, description="Every classified pair (only with `explain`).")


class MergeApplied(BaseModel):
    run: str
    applied: bool = Field(description="False: nothing to merge, or the same plan is already applied.")
    clusters: int
    merged: int
    message: str
    plan: MergePlanSummary
    notes: list[str]


class MergeUndone(BaseModel):
    run: str
    restored: int = Field(description="Canonical tools restored.")
    unlinked: int = Field(description="MERGED_INTO links deleted.")
