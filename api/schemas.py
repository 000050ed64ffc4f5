"""Response models of the tool endpoints (the retrieval models live in kg_tools.retrieval.request)."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

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
