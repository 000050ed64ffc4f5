"""The two routes each kind of run has (dependency inference runs, merge runs): the list, newest first,
and undoing one run. Both kinds answer alike, so the routes are declared here once."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from kg_tools.api.deps import WriteAccess
from kg_tools.api.errors import responses


def run_list_route(router: APIRouter, path: str, model: type[BaseModel], summary: str):
    """GET `path`: the runs, newest first."""
    return router.get(
        path,
        response_model=model,
        response_model_exclude_unset=True,  # a run's properties as stored, none added
        responses=responses(503),
        summary=summary,
    )


def undo_run_route(router: APIRouter, path: str, model: type[BaseModel], summary: str):
    """DELETE `path`: undo one run (a write: it needs the API key when one is set)."""
    return router.delete(
        path,
        response_model=model,
        dependencies=[WriteAccess],
        responses=responses(401, 403, 404, 422, 503, _404="no such run"),
        summary=summary,
    )
