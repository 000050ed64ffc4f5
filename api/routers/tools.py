"""Tool catalog: list, read, dependencies; create/replace and delete (writes need the API key)."""
from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Response, status

from api.deps import EmbedderDep, ToolStoreDep, WriteAccess
from api.schemas import DependencyList, PutResult, ToolDetail, ToolPage
from kg_tools.catalog import DependencyType
from kg_tools.retrieval.request import MAX_DEPTH

router = APIRouter(prefix="/tools", tags=["tools"])

ToolName = Annotated[str, Path(min_length=1, description="Tool name, exactly as in the catalog.")]
NOT_FOUND = {404: {"description": "no tool with this name"}, 503: {"description": "Neo4j is not reachable"}}
WRITE_ERRORS = {401: {"description": "API key required"}, 403: {"description": "wrong API key"},
                422: {"description": "invalid tool: every problem is listed"},
                503: {"description": "Neo4j is not reachable"}}
EXAMPLE_TOOL = {"name": "get_weather", "description": "Current weather for a city.", "func_type": "regular",
                "parameters": [{"name": "city", "type": "string", "description": "City name", "required": True}],
                "depends_on": [{"name": "get_current_location", "dependence_type": "PARAMETER_DIRECTLY_DEPENDS_ON",
                                "parameter_name": "city", "reason": "the city defaults to where the user is"}]}


@router.get("", response_model=ToolPage, summary="List tools by name (paginated)")
def list_tools(store: ToolStoreDep,
               offset: Annotated[int, Query(ge=0)] = 0,
               limit: Annotated[int, Query(ge=1, le=1000)] = 100,
               catalog: Annotated[str | None, Query(description="Only tools of this catalog.")] = None,
               kind: Annotated[str | None, Query(pattern="^(core|regular)$")] = None):
    return store.list_tools(offset, limit, catalog, kind)


@router.get("/{name}", response_model=ToolDetail, responses=NOT_FOUND, summary="One tool: spec, kind, function schema")
def get_tool(name: ToolName, store: ToolStoreDep):
    return store.get_tool(name)


@router.get("/{name}/dependencies", response_model=DependencyList, responses=NOT_FOUND,
            summary="A tool's dependencies, depth-first, as retrieval expands them")
def dependencies(name: ToolName, store: ToolStoreDep,
                 depth: Annotated[int, Query(ge=0, le=MAX_DEPTH)] = MAX_DEPTH,
                 edge_type: Annotated[list[DependencyType] | None, Query(description="Only these types.")] = None):
    return store.dependencies(name, depth, [t.value for t in edge_type] if edge_type else None)


@router.put("/{name}", response_model=PutResult, responses={**WRITE_ERRORS, 201: {"model": PutResult}},
            dependencies=[WriteAccess], summary="Create or replace one tool (node and outgoing edges, atomically)")
def put_tool(name: ToolName, store: ToolStoreDep, embedder: EmbedderDep, response: Response,
             tool: Annotated[dict[str, Any], Body(examples=[EXAMPLE_TOOL])],
             catalog: Annotated[str | None, Query(description="Catalog of a new tool (default: kept, or 'api').")] = None):
    """Validates like `kg-tools load` (unknown dependency target -> 422 naming it), embeds the tool and
    rewrites its node and outgoing dependency edges in one transaction. 201 when created, 200 when replaced."""
    result = store.put_tool(name, tool, embedder, catalog)
    response.status_code = status.HTTP_201_CREATED if result["created"] else status.HTTP_200_OK
    return result


@router.delete("/{name}", status_code=204, responses={**NOT_FOUND, 401: {}, 403: {}},
               dependencies=[WriteAccess], summary="Delete a tool and all its relationships")
def delete_tool(name: ToolName, store: ToolStoreDep) -> Response:
    store.delete_tool(name)
    return Response(status_code=204)
