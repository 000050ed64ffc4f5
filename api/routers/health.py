"""Liveness and readiness probes."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from kg_tools.api.deps import EmbedderDep, GraphDep
from kg_tools.api.errors import responses
from kg_tools.api.http import KgRoute
from kg_tools.api.schemas import Health, Readiness
from kg_tools.readiness import readiness
from kg_tools.telemetry import metrics_page

router = APIRouter(tags=["health"], route_class=KgRoute)


@router.get("/healthz", response_model=Health, summary="The process is up")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get(
    "/readyz",
    response_model=Readiness,
    summary="Neo4j reachable, every index ONLINE, the vectors the configured model's (else 503)",
    responses=responses(
        503,
        _503="Neo4j unreachable (`database_unavailable`), or an index missing or not "
        "ONLINE, or tool vectors made by another embedding model (`not_ready`, with `problems` and `indexes`)",
    ),
)
def readyz(graph: GraphDep, embedder: EmbedderDep):
    state = readiness(graph, embedder.name)
    if not state["ready"]:
        return JSONResponse({"error": "not_ready", "detail": "; ".join(state["problems"]), **state}, status_code=503)
    return {"status": "ready", **state}


@router.get("/metrics", include_in_schema=False)
def metrics() -> Response:
    """Prometheus text exposition (docs/observability.md): requests, latency, errors by code."""
    body, content_type = metrics_page()
    return Response(body, media_type=content_type)
