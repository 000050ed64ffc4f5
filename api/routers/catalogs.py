"""Catalogs: GET /v1/catalogs (list), DELETE /v1/catalogs/{name}, POST /v1/catalogs/{name}/import (load a
catalog document in any supported format through the one load path)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.concurrency import run_in_threadpool

from kg_tools import catalog_store
from kg_tools.api.deps import EmbedderDep, GraphDep, SettingsDep, WriteAccess
from kg_tools.api.errors import responses
from kg_tools.api.http import KgRoute
from kg_tools.api.schemas import CatalogList, ImportResult
from kg_tools.catalog_store import CatalogDeleted
from kg_tools.core_tools import CoreDetection
from kg_tools.core_tools import detect as detect_core
from kg_tools.errors import CatalogError
from kg_tools.ingest import LoadMode, load_catalog
from kg_tools.loaders.document import Format, load_document
from kg_tools.tool_spec import CATALOG_NAME_PATTERN, MAX_CATALOG_LENGTH

router = APIRouter(prefix="/catalogs", tags=["catalogs"], route_class=KgRoute)
DOCUMENT = {"anyOf": [{"type": "array"}, {"type": "object"}]}
BODY = {
    "requestBody": {
        "required": True,
        "description": "The document: a JSON catalog (ToolLinkOS schema), an OpenAI "
        "tool list, an OpenAPI 3.0/3.1 spec (JSON or YAML) or an MCP tools/list result.",
        "content": {
            # As JSON or YAML the document is a list (a catalog, OpenAI tools) or a mapping
            # (OpenAPI, MCP tools/list, {"tools": [...]}). No text/plain: a browser sends
            # that cross-origin without asking (api/security.py answers 415).
            "application/json": {"schema": DOCUMENT},
            "application/yaml": {"schema": DOCUMENT},
        },
    }
}
CatalogName = Annotated[str, Path(min_length=1, max_length=MAX_CATALOG_LENGTH, description="The catalog's name.")]


@router.get("", response_model=CatalogList, responses=responses(503), summary="List catalogs")
def list_catalogs(graph: GraphDep) -> CatalogList:
    """Every catalog: tools, dependency edges, source and last load (or sync, import, PUT)."""
    return CatalogList(catalogs=catalog_store.list_catalogs(graph))


@router.delete(
    "/{name:segment}",
    response_model=CatalogDeleted,
    dependencies=[WriteAccess],
    responses=responses(401, 403, 404, 422, 503, _404="no catalog with this name"),
    summary="Delete a catalog (its tools, edges, inference and merge runs; others untouched)",
)
def delete_catalog(name: CatalogName, graph: GraphDep) -> CatalogDeleted:
    """Deletes in bounded transactions: first the edges from other catalogs into it (their tools'
    precomputed expansion recomputed in the same transaction), then its tools in batches, then its
    dependency inference runs, merge runs and node. Interrupted, a second call finishes the job."""
    return catalog_store.delete_catalog(graph, name)


@router.get(
    "/{name:segment}/core",
    response_model=CoreDetection,
    responses=responses(404, 422, 503, _404="no catalog with this name"),
    summary="The generic utilities of a catalog, as `kg-tools core detect` finds them (dry run)",
)
def core_detect(name: CatalogName, graph: GraphDep) -> CoreDetection:
    """Which tools are generic utilities (read/write a file, fetch a URL, search the web, run a command,
    convert a document), with kind and reason, and what storing them would change. Writes nothing."""
    return detect_core(graph, name)


@router.post(
    "/{name:segment}/core",
    response_model=CoreDetection,
    dependencies=[WriteAccess],
    responses=responses(401, 403, 404, 422, 503, _404="no catalog with this name"),
    summary="Store a catalog's generic utilities as :Core (`kg-tools core detect --apply`); idempotent",
)
def core_apply(name: CatalogName, graph: GraphDep) -> CoreDetection:
    """As GET, and stores the result: utilities become :Core with core_kind, core_reason and core_source
    'detected'; tools detection made :Core earlier and no longer finds go back to :Regular; a tool its
    catalog made core stays core. A second call changes nothing."""
    return detect_core(graph, name, apply=True)


@router.post(
    "/{name:segment}/import",
    response_model=ImportResult,
    dependencies=[WriteAccess],
    openapi_extra=BODY,
    responses=responses(
        401,
        403,
        409,
        413,
        422,
        503,
        _409="tools of the document depend on tools that do not exist, or their names belong "
        "to another catalog (without `takeover`), or the index was built for another "
        "embedding size: `problems` lists each; nothing written",
        _422="the document is not UTF-8, not a catalog in a supported format, or a tool in it "
        "is invalid: `problems` lists every problem; nothing written",
    ),
    summary="Import a catalog file (JSON catalog, OpenAI tools, OpenAPI, MCP tool list); idempotent",
)
async def import_catalog(
    request: Request,
    graph: GraphDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    name: Annotated[
        str,
        Path(
            min_length=1,
            max_length=MAX_CATALOG_LENGTH,
            pattern=CATALOG_NAME_PATTERN,
            description="Catalog name stored on the tools (no control or invisible "
            "characters, no whitespace at either end).",
        ),
    ],
    format: Annotated[Format, Query()] = "auto",
    replace: Annotated[bool, Query(description="Delete this catalog's tools that the document lacks.")] = False,
    takeover: Annotated[bool, Query(description="Move tools of another catalog with the same names.")] = False,
    strict: Annotated[bool, Query(description="Reject non-standard dependence types.")] = False,
) -> dict[str, Any]:
    """Validated, embedded and written in one transaction, like `kg-tools load`: importing the same
    document again changes nothing. Returns {catalog, tools, edges, embedded, embed_seconds, write_seconds, warnings}.
    The body may be up to KG_TOOLS_API_MAX_IMPORT_BYTES (20 MiB by default)."""
    body = await request.body()  # the size limit is enforced while reading (api/http.py: BodyLimit)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CatalogError(f"the document is not UTF-8 text ({exc.reason} at byte {exc.start})") from exc

    def work():
        source = load_document(text, name, format)
        result = load_catalog(
            graph,
            embedder,
            source.tools,
            name,
            LoadMode.REPLACE if replace else LoadMode.ADD,
            strict=strict,
            takeover=takeover,
            batch_size=settings.write_batch_size,
            log=lambda *_: None,
            source=f"import: {source.files[0]}",
            kind="import",
        )
        return result.as_dict() | {
            "format": source.files[0].split("(")[-1].rstrip(")"),
            "warnings": source.warnings + result.warnings,
        }

    return await run_in_threadpool(work)
