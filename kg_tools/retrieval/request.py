"""Typed request and response of the retrieval pipeline (shared by the API, the CLI and eval)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from kg_tools.tool_spec import MAX_CATALOG_LENGTH, NOT_BLANK_PATTERN, DependencyType

MAX_K = 50
MAX_TOTAL = 128
MAX_DEPTH = 5
MAX_STAGES = 16
MAX_CATALOGS = 256  # catalogs one request may name (a gateway names its servers')
# A whole user message may be passed (pasted data included): the API's body limit (1 MiB by default)
# is the practical bound; what is searched is cleaned and bounded (kg_tools/retrieval/query_text.py).
MAX_QUERY_LENGTH = 1_048_576


def _registered_stages(schema: dict) -> None:
    """The JSON Schema of `stages` lists the stages (kg_tools/retrieval/plan.py)."""
    from kg_tools.retrieval.plan import STAGES  # noqa: PLC0415 - cycle: plan.py imports this module

    schema["items"]["enum"] = sorted(STAGES)


SearchMode = Literal["hybrid-boost", "vector", "fulltext", "hybrid", "rrf"]
RerankMode = Literal["offline", "none", "cross-encoder", "llm"]
FusionMode = Literal["toolscope", "rrf", "max", "round-robin"]
# Stage names from before `rerank` and `fusion` were request fields, still accepted in `stages`: each
# sets its field (naming a reranker twice runs it once; two different choices are a 422).
STAGE_ALIASES: dict[str, tuple[str, str]] = {
    "rerank-offline": ("rerank", "offline"),
    "rerank-cross-encoder": ("rerank", "cross-encoder"),
    "rerank-llm": ("rerank", "llm"),
    "fusion-rrf": ("fusion", "rrf"),
    "fusion-max": ("fusion", "max"),
    "fusion-round-robin": ("fusion", "round-robin"),
}


class RetrievalRequest(BaseModel):
    """Graph RAG-Tool Fusion: k seeds by search, optional rerank, dependencies to `depth`, cut to K."""

    # JSON types as the schema says: a number, boolean or string of the wrong JSON type is a 422,
    # never coerced (0 is not false, "3" is not 3).
    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    query: str = Field(
        min_length=1,
        max_length=MAX_QUERY_LENGTH,
        description="What the agent needs to do (not blank): a short request or a whole user message. "
        "Data URIs, base64 blobs and long code/data blocks are not searched, and a long "
        "message is bounded (its head and tail); `stages` says so (`clean`).",
        json_schema_extra={"pattern": NOT_BLANK_PATTERN},
    )
    k: int = Field(3, strict=True, ge=1, le=MAX_K, description="Seed tools from search.")
    K: int = Field(10, strict=True, ge=1, le=MAX_TOTAL, description="Tools returned in total (seeds + dependencies).")
    depth: int = Field(
        MAX_DEPTH, strict=True, ge=0, le=MAX_DEPTH, description="Maximum dependency traversal depth (0 = none)."
    )
    d_limit: int | None = Field(
        None, strict=True, ge=1, le=MAX_TOTAL, description="At most this many dependencies per seed."
    )
    mode: SearchMode = Field(
        "hybrid-boost",
        description="Search: hybrid-boost (default; the vector score plus a small bonus for BM25 matches of the "
        "split tool names and descriptions), vector, fulltext (BM25), hybrid (alpha-weighted), rrf.",
    )
    alpha: float = Field(0.8, strict=True, ge=0.0, le=1.0, description="Hybrid weight of the vector leg.")
    rerank: RerankMode = Field(
        "offline",
        description="Seed reranker: offline (default; deterministic rescoring of the top 15 in vector "
        "and hybrid-boost modes, see kg_tools/retrieval/ordering.py), none (search order), cross-encoder, llm.",
    )
    fusion: FusionMode | None = Field(
        None,
        description="How the result lists of several queries (decompose, multi-query, steps) are fused: toolscope "
        "(each list's top-1 first, then by min-max normalised score; the default), rrf, max, round-robin "
        "(the steps' default). A request searched as one query is not affected.",
    )
    edge_types: list[DependencyType] | None = Field(
        None, max_length=2 * len(DependencyType), description="Relationship types to traverse (default all)."
    )
    prefer_direct: bool = Field(False, strict=True, description="Visit direct dependencies before indirect ones.")
    skip_supplied_parameters: bool = Field(
        False, strict=True, description="Drop PARAMETER_* dependencies whose parameter the query already supplies."
    )
    supplied_last: bool = Field(
        True,
        strict=True,
        description="A seed's dependencies through a parameter whose value the query states go after its "
        "other dependencies.",
    )
    utilities: bool = Field(
        True,
        strict=True,
        description="Attach the generic utility a step implies (a path to save to: a file writer; a URL: a fetch "
        "tool; 'search the web for': a web search; 'remember that': a memory store) as the dependency of the "
        "step's best tool: the catalog's :Core tool of that kind (`kg-tools core detect --apply`); `stages` says "
        "so (`utilities`). false: never.",
    )
    server_score: bool = Field(
        True,
        strict=True,
        description="A tool's score draws on its server's: blended with the query's similarity to the (:Server) "
        "that provides it (a gateway's upstreams), when the search is by vector score (vector, hybrid-boost) and "
        "the request searched as one query; `stages` says so (`server-score`) when some candidate has a server. "
        "false: only when `server-score` is named in `stages`.",
    )
    split_steps: bool = Field(
        False,
        strict=True,
        description="A request that names several steps ('find ..., then summarise it and save it "
        "to a file') is searched step by step (offline split) and the lists merged "
        "round-robin, each step's best first; `stages` says so (`steps`). Applies "
        "when no other transform stage is asked for.",
    )
    stages: list[str] = Field(
        default_factory=list,
        max_length=MAX_STAGES,
        json_schema_extra=_registered_stages,
        description="Extra pipeline stages by name (unknown names: 422 unknown_stage). The names rerank-offline, "
        "rerank-cross-encoder, rerank-llm, fusion-rrf, fusion-max and fusion-round-robin set `rerank` / `fusion`.",
    )
    catalog: str | None = Field(None, max_length=MAX_CATALOG_LENGTH, description="Restrict to tools of one catalog.")
    catalogs: list[Annotated[str, Field(max_length=MAX_CATALOG_LENGTH)]] | None = Field(
        None,
        max_length=MAX_CATALOGS,
        description="Restrict to tools of these catalogs (with `catalog`: of all of them), filtered inside the search.",
    )

    @property
    def scope(self) -> list[str] | None:
        """The catalogs the search is restricted to, or None for every catalog."""
        from kg_tools.retrieval.queries import catalog_list  # noqa: PLC0415 - cycle: queries imports this module

        return catalog_list(self.catalog, self.catalogs)

    @field_validator("query")
    @classmethod
    def _non_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("query must not be empty")
        return v.strip()

    @model_validator(mode="after")
    def _stage_aliases(self) -> RetrievalRequest:
        """An alias in `stages` sets its field; one that contradicts the field or another alias is refused."""
        chosen: dict[str, str] = {}
        for name in self.stages:
            if name not in STAGE_ALIASES:
                continue
            field, value = STAGE_ALIASES[name]
            before = chosen.get(field, getattr(self, field) if field in self.model_fields_set else None)
            if before is not None and before != value:
                raise ValueError(f"stage {name!r} sets {field} to {value!r} but {field} is {before!r}: choose one")
            chosen[field] = value
        for field, value in chosen.items():
            setattr(self, field, value)
        return self


class Via(BaseModel):
    """The dependency edge through which a tool was reached."""

    model_config = ConfigDict(populate_by_name=True)
    from_: str = Field(alias="from", serialization_alias="from")
    type: str
    parameter_name: str | None = None
    reason: str | None = None
    inferred: bool = Field(False, description="the edge was inferred or observed, not written in the catalog")
    confidence: float | None = Field(None, description="an inferred edge's calibrated confidence (0-1)")


def tool_key(name: str, catalog: str | None) -> tuple[str, str]:
    """A tool's identity in a result: (name, catalog). Name first, so sorting by it sorts by name as before."""
    return name, catalog or ""


class ToolHit(BaseModel):
    name: str
    catalog: str | None = Field(
        None, description="The tool's catalog: a tool is (catalog, name); several catalogs may hold a name."
    )
    kind: Literal["core", "regular"]
    role: Literal["seed", "dependency"]
    score: float | None = None
    via: list[Via] = Field(default_factory=list)
    members: list[str] = Field(default_factory=list, description="Merged tools this canonical tool stands for.")
    spec: dict[str, Any] = Field(default_factory=dict)
    function: dict[str, Any] = Field(default_factory=dict)
    step: int | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="Per-step retrieval (`per-step`): the request's step this tool serves (0: the request as a "
        "whole; 1, 2, ...: its steps, listed in `stages`); absent otherwise.",
    )


class StageInfo(BaseModel):
    name: str
    detail: str = ""
    fallback: bool = False


class RetrievalResponse(BaseModel):
    tools: list[ToolHit]
    stages: list[StageInfo]
    timing_ms: dict[str, float]

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.tools]
