"""Dependency inference: POST /v1/deps/infer (dry run or apply), GET /v1/deps/runs, DELETE /v1/deps/runs/{id}."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field

from kg_tools.api.deps import EmbedderDep, GraphDep, SettingsDep, ToolStoreDep, WriteAccess
from kg_tools.api.errors import json_write_responses
from kg_tools.api.http import KgRoute
from kg_tools.api.names import RunId
from kg_tools.api.runs import run_list_route, undo_run_route
from kg_tools.api.schemas import DependencyRunList, InferResponse
from kg_tools.deps import DEFAULT_MIN_CONFIDENCE, apply_results, infer_graph, list_runs, recover, undo_run
from kg_tools.deps.store import DependencyRunUndone
from kg_tools.tool_spec import MAX_CATALOG_LENGTH

router = APIRouter(prefix="/deps", tags=["dependency inference"], route_class=KgRoute)


class InferRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    catalog: str | None = Field(
        None, max_length=MAX_CATALOG_LENGTH, description="Only this catalog (default: each catalog in turn)."
    )
    apply: bool = Field(False, strict=True, description="Write the proposals as one undoable run per catalog.")
    min_confidence: float = Field(DEFAULT_MIN_CONFIDENCE, strict=True, ge=0.0, le=1.0)
    method: Literal["auto", "offline", "llm"] = Field("auto", description="auto: the LLM judge when configured.")


@router.post(
    "/infer",
    response_model=InferResponse,
    dependencies=[WriteAccess],
    responses=json_write_responses(
        404,
        502,
        _404="no tool in this catalog",
        _503="Neo4j is not reachable (`database_unavailable`), or method `llm` without a "
        "configured LLM (`misconfigured`)",
    ),
    summary="Propose typed dependency edges for a catalog (and apply them)",
)
def infer(
    req: InferRequest, graph: GraphDep, embedder: EmbedderDep, settings: SettingsDep, store: ToolStoreDep
) -> dict[str, Any]:
    """Hand-written edges are never touched; each proposal has type, parameter_name, confidence, method and reason.
    `method: llm` is offered (and in this server's schema) only when an LLM is configured. One request works
    through at most KG_TOOLS_API_MAX_INFER_TOOLS tools (1,000 by default; more is 422 `too_many_tools` on
    `catalog` at once): name a smaller catalog, or run `kg-tools deps infer`, which has no limit."""
    if req.method == "llm" and not settings.llm_configured:
        raise RequestValidationError(
            [
                {
                    "type": "literal_error",
                    "loc": ("body", "method"),
                    "msg": "Input should be 'auto' or 'offline': this server has no LLM (OPENAI_BASE_URL is not set)",
                }
            ]
        )
    tools = store.list_tools(0, 1, req.catalog, None).total
    if tools > settings.api_max_infer_tools:
        scope = f"catalog {req.catalog!r} has" if req.catalog else "the graph has (no catalog named)"
        raise RequestValidationError(
            [
                {
                    "type": "too_many_tools",
                    "loc": ("body", "catalog"),
                    "msg": f"{scope} {tools:,} tools; one request infers over at most "
                    f"{settings.api_max_infer_tools:,} (KG_TOOLS_API_MAX_INFER_TOOLS): "
                    "name a smaller catalog or run `kg-tools deps infer`",
                }
            ]
        )
    if req.apply:
        recover(graph)  # a run left pending by a crash is rolled back before the graph is read
    results = infer_graph(
        graph, embedder, settings, catalog=req.catalog, min_confidence=req.min_confidence, method=req.method
    )
    runs = apply_results(graph, results, req.min_confidence) if req.apply else []
    return {"results": [r.summary() | {"edges": [e.as_dict() for e in r.edges]} for r in results], "runs": runs}


@run_list_route(router, "/runs", DependencyRunList, "Dependency inference runs, newest first")
def runs(graph: GraphDep) -> DependencyRunList:
    return DependencyRunList(runs=list_runs(graph))


@undo_run_route(router, "/runs/{run_id:segment}", DependencyRunUndone, "Undo one inference run")
def undo(run_id: RunId, graph: GraphDep) -> DependencyRunUndone:
    return undo_run(graph, run_id)
