"""Tool catalog: list, read, dependencies; create/replace and delete (writes need the API key).

Tool names may hold any character but control characters ('/', spaces, quotes, unicode): in a URL
'/' is sent as %2F and each name is one path segment (api/http.py)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Response, status

from kg_tools.api.deps import EmbedderDep, ToolStoreDep, WriteAccess
from kg_tools.api.errors import json_write_responses, responses
from kg_tools.api.http import KgRoute
from kg_tools.api.names import ToolName
from kg_tools.api.schemas import tool_body_schema
from kg_tools.retrieval.request import MAX_DEPTH
from kg_tools.tool_spec import CATALOG_NAME_PATTERN, MAX_CATALOG_LENGTH, DependencyType
from kg_tools.tool_store import DependencyList, PutResult, ToolDetail, ToolPage

AMBIGUOUS = "the name is in several catalogs and `catalog` is not given (`ambiguous_tool`; `problems` lists them)"
router = APIRouter(prefix="/tools", tags=["tools"], route_class=KgRoute)

MAX_OFFSET = 1_000_000  # Neo4j list indexes are 32-bit; no catalog comes near this
MAX_PAGE = 1000
EXAMPLE_TOOL = {
    "name": "get_weather",
    "description": "Current weather for a city.",
    "func_type": "regular",
    "parameters": [{"name": "city", "type": "string", "description": "City name", "required": True}],
    "depends_on": [
        {
            "name": "get_current_location",
            "dependence_type": "PARAMETER_DIRECTLY_DEPENDS_ON",
            "parameter_name": "city",
            "reason": "the city defaults to where the user is",
        }
    ],
}
PUT_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": tool_body_schema(), "examples": {"get_weather": {"value": EXAMPLE_TOOL}}}
        },
    }
}
NAME = "{name:segment}"
CatalogParam = Annotated[
    str | None,
    Query(
        max_length=MAX_CATALOG_LENGTH,
        description="The tool's catalog (a tool is catalog + name). Without it a name one catalog holds is that "
        "tool; a name several hold is a 409 `ambiguous_tool` listing them.",
    ),
]


@router.get("", response_model=ToolPage, responses=responses(422, 503), summary="List tools by name (paginated)")
def list_tools(
    store: ToolStoreDep,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    catalog: Annotated[
        str | None, Query(max_length=MAX_CATALOG_LENGTH, description="Only tools of this catalog.")
    ] = None,
    kind: Annotated[Literal["core", "regular"] | None, Query()] = None,
):
    return store.list_tools(offset, limit, catalog, kind)


@router.get(
    f"/{NAME}",
    response_model=ToolDetail,
    responses=responses(404, 409, 422, 503, _404="no tool with this name", _409=AMBIGUOUS),
    summary="One tool: spec, kind, function schema",
)
def get_tool(name: ToolName, store: ToolStoreDep, catalog: CatalogParam = None):
    return store.get_tool(name, catalog)


@router.get(
    f"/{NAME}/dependencies",
    response_model=DependencyList,
    responses=responses(404, 409, 422, 503, _404="no tool with this name", _409=AMBIGUOUS),
    summary="A tool's dependencies, depth-first, as retrieval expands them",
)
def dependencies(
    name: ToolName,
    store: ToolStoreDep,
    catalog: CatalogParam = None,
    depth: Annotated[int, Query(ge=0, le=MAX_DEPTH)] = MAX_DEPTH,
    edge_type: Annotated[
        list[DependencyType] | None, Query(max_length=len(DependencyType), description="Only these types.")
    ] = None,
):
    return store.dependencies(name, depth, [t.value for t in edge_type] if edge_type else None, catalog)


@router.put(
    f"/{NAME}",
    response_model=PutResult,
    responses={
        201: {"model": PutResult, "description": "Created"},
        **json_write_responses(
            409,
            _403="wrong API key, or the catalog is a gateway's (`gateway_catalog`: only its sync writes it)",
            _409="the body names another tool than the path, depends on a tool that does "
            "not exist in the catalog (or on itself), or the name is in several catalogs and `catalog` is not "
            "given (`ambiguous_tool`), or a load is writing the tool and has not switched it in yet "
            "(`conflict`, try again when it has finished); `problems` lists each; nothing written",
            _422="the body is not a valid tool: `problems` lists every problem",
        ),
    },
    dependencies=[WriteAccess],
    openapi_extra=PUT_BODY,
    summary="Create or replace one tool (node and outgoing edges, atomically)",
)
def put_tool(
    name: ToolName,
    store: ToolStoreDep,
    embedder: EmbedderDep,
    response: Response,
    tool: Annotated[dict[str, Any], Body()],
    catalog: Annotated[
        str | None,
        Query(
            max_length=MAX_CATALOG_LENGTH,
            pattern=CATALOG_NAME_PATTERN,
            description="The tool's catalog (a tool is catalog + name). Default: the one catalog that holds "
            "the name, else 'api'; several: 409 `ambiguous_tool`.",
        ),
    ] = None,
    takeover: Annotated[
        bool,
        Query(
            description="Obsolete, accepted and ignored: names are per catalog, a name in another catalog is "
            "another tool."
        ),
    ] = False,
):
    """Validates like `kg-tools load`, embeds the tool and rewrites its node and outgoing dependency
    edges in one transaction. 201 when created, 200 when replaced. The body is stored unchanged as the
    tool's `spec`; its `name` must be the path's name (409 otherwise), every dependency target must
    exist in the tool's catalog (409 naming each otherwise; also when one is deleted while the request
    runs). A tool a running load has written but not switched in is a 409 (a DELETE of one is a 404); a
    tool of a gateway's catalog a 403. The answer is what this request's transaction wrote
    (docs/concurrency.md)."""
    result = store.put_tool(name, tool, embedder, catalog or None, takeover)
    response.status_code = status.HTTP_201_CREATED if result.created else status.HTTP_200_OK
    return result


@router.delete(
    f"/{NAME}",
    status_code=204,
    responses=responses(401, 403, 404, 409, 422, 503, _404="no tool with this name", _409=AMBIGUOUS),
    dependencies=[WriteAccess],
    summary="Delete a tool and all its relationships",
)
def delete_tool(name: ToolName, store: ToolStoreDep, catalog: CatalogParam = None) -> Response:
    store.delete_tool(name, catalog)
    return Response(status_code=204)
