"""POST /v1/retrieve: Graph RAG-Tool Fusion for one request."""

from __future__ import annotations

from fastapi import APIRouter, Response

from kg_tools.api.deps import PipelineDep
from kg_tools.api.errors import responses
from kg_tools.api.http import KgRoute
from kg_tools.retrieval import RetrievalRequest, RetrievalResponse

router = APIRouter(tags=["retrieval"], route_class=KgRoute)


@router.post(
    "/retrieve",
    response_model=RetrievalResponse,
    response_model_by_alias=True,
    responses=responses(
        400,
        409,
        413,
        422,
        502,
        503,
        _409="`schema_mismatch`: the graph's vectors were made by another embedding model than the configured "
        "one (run `kg-tools schema reindex`, or set KG_TOOLS_EMBED_MODEL to the graph's model)",
        _422="a field is missing or out of range, the query is blank or a stage unknown",
        _502="rerank `llm` or an LLM stage: the configured LLM failed",
    ),
    summary="The tools an agent needs for a request, dependencies included",
)
def retrieve(request: RetrievalRequest, pipeline: PipelineDep) -> Response:
    """Seeds by search (k), optional rerank, each seed's dependencies depth-first (depth, d_limit,
    edge_types), ordered seed 1, its dependencies, seed 2, ..., unique, cut to K."""
    # FastAPI's own request span (a caller's `traceparent` its parent) holds the pipeline's `retrieve` span.
    result = pipeline.retrieve(request)
    # Serialised once by pydantic (the response model above documents the shape).
    return Response(result.model_dump_json(by_alias=True), media_type="application/json")
