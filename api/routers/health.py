"""Liveness and readiness probes."""
from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api.deps import GraphDep
from kg_tools.readiness import readiness

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="The process is up")
def healthz() -> dict:
    return {"status": "ok"}


@router.get("/readyz", summary="Neo4j reachable and every index ONLINE (else 503)",
            responses={503: {"description": "Neo4j unreachable or an index not ONLINE"}})
def readyz(graph: GraphDep):
    state = readiness(graph)
    if not state["ready"]:
        return JSONResponse({"error": "not_ready", "detail": "; ".join(state["problems"]), **state}, status_code=503)
    return {"status": "ready", **state}
