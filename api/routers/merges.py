"""Merge runs (ToolScope merging): list, plan (dry run), apply and undo. Writes and the plan (an
expensive read) need the API key when one is set."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from kg_tools.api.deps import EmbedderDep, GraphDep, SettingsDep, WriteAccess
from kg_tools.api.errors import json_write_responses, responses
from kg_tools.api.http import KgRoute
from kg_tools.api.names import RunId
from kg_tools.api.runs import run_list_route, undo_run_route
from kg_tools.api.schemas import MergeApplied, MergePlan, MergeRunList
from kg_tools.llm import llm_from_settings
from kg_tools.merge import DEFAULT_THETA, DEFAULT_TOP_K, apply_plan, build_plan, list_runs, undo_run
from kg_tools.merge.store import MergeUndone
from kg_tools.tool_spec import MAX_CATALOG_LENGTH

router = APIRouter(prefix="/merges", tags=["merges"], route_class=KgRoute)

# The plan compares every tool with its top_k vector neighbours above theta: a low theta with a
# large top_k made one request cost seconds and megabytes (ToolLinkOS, theta 0.01, top_k 200: 7.2 s,
# 13 MB), so the API allows only the range where a merge makes sense. The CLI takes any value.
MIN_THETA = 0.5
MAX_TOP_K = 50


class MergeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    theta: float = Field(
        DEFAULT_THETA, strict=True, ge=MIN_THETA, le=1.0, description="Cosine threshold for candidate pairs."
    )
    top_k: int = Field(DEFAULT_TOP_K, strict=True, ge=1, le=MAX_TOP_K, description="Vector neighbours per tool.")
    catalog: str | None = Field(None, max_length=MAX_CATALOG_LENGTH, description="Only tools of this catalog.")
    offline: bool = Field(False, strict=True, description="Ignore a configured LLM (deterministic offline merger).")


def _plan(graph, settings, req: MergeRequest):
    llm = None if req.offline else llm_from_settings(settings)
    return build_plan(
        graph,
        theta=req.theta,
        top_k=req.top_k,
        catalog=req.catalog,
        llm=llm,
        auto_correct=settings.merge_auto_correct,
    )


@run_list_route(router, "", MergeRunList, "Merge runs, newest first")
def get_merges(graph: GraphDep) -> MergeRunList:
    return MergeRunList(runs=list_runs(graph))


@router.get(
    "/plan",
    response_model=MergePlan,
    response_model_exclude_unset=True,  # `pairs` only with explain
    dependencies=[WriteAccess],
    responses=responses(401, 403, 422, 502, 503),
    summary="Dry run: the clusters a merge would make (nothing is written)",
)
def get_plan(
    graph: GraphDep,
    settings: SettingsDep,
    theta: Annotated[float, Query(ge=MIN_THETA, le=1.0)] = DEFAULT_THETA,
    top_k: Annotated[int, Query(ge=1, le=MAX_TOP_K)] = DEFAULT_TOP_K,
    catalog: Annotated[str | None, Query(max_length=MAX_CATALOG_LENGTH)] = None,
    offline: Annotated[bool, Query()] = False,
    explain: Annotated[bool, Query(description="Include every classified pair.")] = False,
) -> dict[str, Any]:
    plan = _plan(graph, settings, MergeRequest(theta=theta, top_k=top_k, catalog=catalog, offline=offline))
    return plan.to_dict(explain=explain)


@router.post(
    "",
    response_model=MergeApplied,
    dependencies=[WriteAccess],
    responses=json_write_responses(
        409,
        502,
        _409="the graph changed while the plan was made (`stale_plan`): nothing written",
    ),
    summary="Plan and apply a merge in one transaction (the same plan twice changes nothing)",
)
def post_merge(req: MergeRequest, graph: GraphDep, settings: SettingsDep, embedder: EmbedderDep) -> dict[str, Any]:
    plan = _plan(graph, settings, req)
    result = apply_plan(graph, plan, embedder)
    return {
        "run": result.run_id,
        "applied": result.applied,
        "clusters": result.clusters,
        "merged": result.merged,
        "message": result.message,
        "plan": plan.summary(),
        "notes": plan.notes,
    }


@undo_run_route(router, "/{run_id:segment}", MergeUndone, "Undo one merge run exactly")
def delete_merge(run_id: RunId, graph: GraphDep) -> MergeUndone:
    return undo_run(graph, run_id)
