"""Response models of the tool endpoints (the retrieval models live in kg_tools.retrieval.request)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kg_tools.catalog import _ALIASES, DEPENDENCY_TYPES, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, TOOL_NAME_PATTERN
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


class CatalogList(BaseModel):
    catalogs: list[CatalogInfo]


class CatalogDeleted(BaseModel):
    catalog: str
    tools: int = Field(description="Tools deleted.")
    edges: int = Field(description="Dependency edges from those tools deleted with them.")
    dependency_runs: int = Field(description="Dependency inference runs of the catalog deleted.")
    merge_runs: int = Field(description="Merge runs of the catalog deleted.")
    detached_edges: int = Field(description="Edges from other catalogs' tools into it removed first.")
