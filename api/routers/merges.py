"""Merge runs (ToolScope merging): list, plan (dry run), apply and undo. Writes need the API key."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from pydantic import BaseModel, Field

from api.deps import GraphDep, SettingsDep, WriteAccess
from kg_tools.merge import DEFAULT_THETA, DEFAULT_TOP_K, apply_plan, build_plan, list_runs, undo_run
from kg_tools.errors import MergeRunNotFoundError, StalePlanError

router = APIRouter(prefix="/merges", tags=["merges"])
WRITE_ERRORS = {401: {"description": "API key required"}, 403: {"description": "wrong API key"},
                503: {"description": "Neo4j is not reachable"}}


class MergeRequest(BaseModel):
    theta: float = Field(DEFAULT_THETA, gt=0.0, le=1.0, description="Cosine threshold for candidate pairs.")
    top_k: int = Field(DEFAULT_TOP_K, ge=1, le=200, description="Vector neighbours per tool.")
    catalog: str | None = Field(None, description="Only tools of this catalog.")
    offline: bool = Field(False, description="Ignore a configured LLM (deterministic offline merger).")


def _plan(graph, settings, req: MergeRequest):
    from kg_tools.llm import llm_from_settings

    llm = None if req.offline else llm_from_settings(settings)
    return build_plan(graph, theta=req.theta, top_k=req.top_k, catalog=req.catalog, llm=llm)


@router.get("", summary="Merge runs, newest first")
def get_merges(graph: GraphDep) -> dict[str, Any]:
    return {"runs": list_runs(graph)}


@router.get("/plan", summary="Dry run: the clusters a merge would make (nothing is written)")
def get_plan(graph: GraphDep, settings: SettingsDep,
             theta: Annotated[float, Query(gt=0.0, le=1.0)] = DEFAULT_THETA,
             top_k: Annotated[int, Query(ge=1, le=200)] = DEFAULT_TOP_K,
             catalog: Annotated[str | None, Query()] = None,
             offline: Annotated[bool, Query()] = False,
             explain: Annotated[bool, Query(description="Include every classified pair.")] = False) -> dict[str, Any]:
    plan = _plan(graph, settings, MergeRequest(theta=theta, top_k=top_k, catalog=catalog, offline=offline))
    return plan.to_dict(explain=explain)


@router.post("", dependencies=[WriteAccess], responses=WRITE_ERRORS,
             summary="Plan and apply a merge in one transaction (the same plan twice changes nothing)")
def post_merge(req: MergeRequest, graph: GraphDep, settings: SettingsDep) -> dict[str, Any]:
    plan = _plan(graph, settings, req)
    try:
        result = apply_plan(graph, plan)
    except StalePlanError as exc:
        raise HTTPException(409, str(exc)) from exc
    return {"run": result.run_id, "applied": result.applied, "clusters": result.clusters, "merged": result.merged,
            "message": result.message, "plan": plan.summary(), "notes": plan.notes}


@router.delete("/{run_id}", dependencies=[WriteAccess], responses={**WRITE_ERRORS, 404: {"description": "no such run"}},
               summary="Undo one merge run exactly")
def delete_merge(run_id: str, graph: GraphDep) -> dict[str, Any]:
    try:
        return undo_run(graph, run_id)
    except MergeRunNotFoundError as exc:
        raise HTTPException(404, str(exc)) from exc
