"""Dependency inference: POST /v1/deps/infer (dry run or apply), GET /v1/deps/runs, DELETE /v1/deps/runs/{id}."""
from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from api.deps import EmbedderDep, GraphDep, SettingsDep, WriteAccess
from kg_tools.deps import DEFAULT_MIN_CONFIDENCE, apply_results, infer_graph, list_runs, undo_run

router = APIRouter(prefix="/deps", tags=["dependency inference"])
ERRORS = {401: {"description": "API key required"}, 403: {"description": "wrong API key"},
          404: {"description": "no such catalog or run"}, 503: {"description": "Neo4j is not reachable"}}


class InferRequest(BaseModel):
    catalog: str | None = Field(None, description="Only this catalog (default: each catalog in turn).")
    apply: bool = Field(False, description="Write the proposals as one undoable run per catalog.")
    min_confidence: float = Field(DEFAULT_MIN_CONFIDENCE, ge=0.0, le=1.0)
    method: Literal["auto", "offline", "llm"] = Field("auto", description="auto: the LLM judge when configured.")


@router.post("/infer", dependencies=[WriteAccess], responses=ERRORS,
             summary="Propose typed dependency edges for a catalog (and apply them)")
def infer(req: InferRequest, graph: GraphDep, embedder: EmbedderDep, settings: SettingsDep) -> dict[str, Any]:
    """Hand-written edges are never touched; each proposal has type, parameter_name, confidence, method and reason."""
    results = infer_graph(graph, embedder, settings, catalog=req.catalog, min_confidence=req.min_confidence,
                          method=req.method)
    runs = apply_results(graph, results, req.min_confidence) if req.apply else []
    return {"results": [r.summary() | {"edges": [e.as_dict() for e in r.edges]} for r in results], "runs": runs}


@router.get("/runs", summary="Dependency inference runs, newest first")
def runs(graph: GraphDep) -> dict[str, Any]:
    return {"runs": list_runs(graph)}


@router.delete("/runs/{run_id}", dependencies=[WriteAccess], responses=ERRORS, summary="Undo one inference run")
def undo(run_id: str, graph: GraphDep) -> dict[str, Any]:
    return undo_run(graph, run_id)
