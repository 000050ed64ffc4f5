"""Response models of the endpoints. The models of what a module returns live next to it and are served as
they are (kg_tools.tool_store, kg_tools.catalog_store, ...; the retrieval models in kg_tools.retrieval.request);
this module imports them and adds the API's own envelopes and the PUT body."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kg_tools.catalog_store import CatalogDeleted, CatalogInfo
from kg_tools.deps.store import AppliedRun, DependencyRun, DependencyRunUndone
from kg_tools.merge.classify import PairDecision  # the classifier's own record, as served
from kg_tools.merge.store import MergeRun, MergeUndone
from kg_tools.tool_spec import _ALIASES, DEPENDENCY_TYPES, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, TOOL_NAME_PATTERN
from kg_tools.tool_store import Dependency, DependencyList, Kind, PutResult, ToolDetail, ToolPage, ToolSummary

__all__ = [  # served as their producers return them
    "AppliedRun",
    "DependencyRun",
    "DependencyRunUndone",
    "MergeRun",
    "MergeUndone",
    "CatalogDeleted",
    "CatalogInfo",
    "Dependency",
    "DependencyList",
    "Kind",
    "PutResult",
    "ToolDetail",
    "ToolPage",
    "ToolSummary",
]

# -- the PUT body, for the OpenAPI schema (the route validates the raw JSON with kg_tools.tool_spec) --


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


# -- catalogs --


class CatalogList(BaseModel):
    catalogs: list[CatalogInfo]


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


class InferResponse(BaseModel):
    results: list[InferenceSummary] = Field(description="One per catalog.")
    runs: list[AppliedRun] = Field(description="With `apply`: one run per catalog; empty otherwise.")


class DependencyRunList(BaseModel):
    runs: list[DependencyRun] = Field(description="Newest first.")


# -- merges --


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
