"""The one place where errors become HTTP responses, and the one `Error` model that documents them.

Every 4xx/5xx answer of the API is a JSON `Error`: {"error": <code>, "detail": <message>, ...}
(`errors` for field errors, `problems` for catalog problems, `name` for an unknown tool). The
OpenAPI schema documents exactly these bodies (`responses(...)` below). Neo4j being unreachable is
never a bare 500 but a fast 503."""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from neo4j.exceptions import Neo4jError
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from kg_tools.errors import (
    AmbiguousToolError,
    CatalogBusyError,
    CatalogError,
    CatalogNotFoundError,
    ConfigurationError,
    DatabaseMemoryError,
    DatabaseUnavailableError,
    DependencyRunNotFoundError,
    DocumentTooLargeError,
    GatewayCatalogError,
    InvalidTextError,
    LLMError,
    MergeRunNotFoundError,
    SchemaMismatchError,
    StalePlanError,
    ToolConflictError,
    ToolNotFoundError,
    UnknownStageError,
    WriteConflictError,
)
from kg_tools.telemetry import ERRORS
from kg_tools.tool_spec import clip

log = logging.getLogger("kg_tools.api")

# An error message never echoes more of the request than this (a 1 MB name is not sent back).
MAX_ECHO = 200


class FieldError(BaseModel):
    field: str = Field(description="The request field, e.g. `k`, `edge_types.0`, `offset`.")
    message: str
    type: str = Field(description="pydantic's error type, e.g. `less_than_equal`, `missing`.")


class Error(BaseModel):
    """Every error answer (4xx and 5xx) of the API."""

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [
                {
                    "error": "validation_error",
                    "detail": "k: Input should be less than or equal to 50",
                    "errors": [
                        {"field": "k", "message": "Input should be less than or equal to 50", "type": "less_than_equal"}
                    ],
                },
                {"error": "database_unavailable", "detail": "Neo4j is not reachable at bolt://127.0.0.1:7687 (...)"},
            ]
        },
    )

    error: str = Field(
        description="Machine-readable code: validation_error, invalid_json, invalid_tool, "
        "unknown_stage, unauthorized, forbidden, not_found, tool_not_found, "
        "catalog_not_found, run_not_found, method_not_allowed, conflict, ambiguous_tool, gateway_catalog, "
        "schema_mismatch, stale_plan, payload_too_large, document_too_large, "
        "forbidden_origin, unsupported_media_type, misdirected_request, "
        "database_unavailable, database_out_of_memory, "
        "misconfigured, not_ready, llm_error, internal_error."
    )
    detail: str = Field(description="What went wrong, for a human (input is never echoed at length).")
    errors: list[FieldError] | None = Field(None, description="validation_error: one entry per offending field.")
    problems: list[str] | None = Field(None, description="invalid_tool / conflict: every problem found.")
    catalogs: list[str] | None = Field(
        None, description="ambiguous_tool: the catalogs that hold the name (ask again with `catalog`)."
    )
    name: str | None = Field(None, description="tool_not_found: the name asked for.")


DESCRIPTIONS = {
    400: "The body is not valid JSON (or not UTF-8 text)",
    401: "API key required: `Authorization: Bearer <KG_TOOLS_API_KEY>` (only when the server sets a key)",
    403: "Wrong API key",
    404: "Not found",
    405: "Method not allowed (the `Allow` header lists the allowed ones)",
    409: "Conflict with the graph's current state",
    413: "The request body is larger than the limit",
    415: "`unsupported_media_type`: the body's Content-Type is not JSON (or YAML, for a catalog import)",
    421: "`misdirected_request`: the Host header is not one this server answers to (KG_TOOLS_API_ALLOWED_HOSTS)",
    422: "A field is missing, of the wrong type or out of range; `errors` names each field",
    502: "The configured LLM failed",
    503: "Neo4j is not reachable (answered at once, never after a long wait)",
}


FORBIDDEN_ORIGIN = "`forbidden_origin`: sent by a web page of another origin (not in KG_TOOLS_API_ALLOWED_ORIGINS)"


def responses(*codes: int, **descriptions: str) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses` for a route: each status documented with the `Error` model.
    `descriptions` (e.g. `_404="no tool with this name"`) override the generic descriptions."""
    return {code: {"model": Error, "description": descriptions.get(f"_{code}", DESCRIPTIONS[code])} for code in codes}


# A write that takes a JSON body: the body may be malformed (400) or too large (413), the API key
# missing or wrong (401, 403), a field invalid (422), Neo4j unreachable (503).
JSON_WRITE = (400, 401, 403, 413, 422, 503)


def json_write_responses(*codes: int, **descriptions: str) -> dict[int | str, dict[str, Any]]:
    """`responses(...)` of a write with a JSON body: the codes of `JSON_WRITE` and `codes`, in order."""
    return responses(*sorted({*JSON_WRITE, *codes}), **descriptions)


def error_body(status: int, code: str, detail: str, headers: dict | None = None, **extra) -> JSONResponse:
    headers = dict(headers or {})
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    body = {"error": code, "detail": detail, **{k: v for k, v in extra.items() if v is not None}}
    ERRORS.labels("rest", code).inc()
    return JSONResponse(body, status_code=status, headers=headers or None)


def _field(loc) -> str:
    """("body", "k") -> "k"; ("query", "depth") -> "depth"; the location prefix is dropped."""
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        parts = parts[1:]
    return clip(".".join(parts) or "body", MAX_ECHO, quote=False)


def _path_table(app) -> list[tuple[re.Pattern, str, int, set[str]]]:
    """(regex, template, parameters, methods) of every path the OpenAPI schema documents (cached)."""
    table = getattr(app.state, "path_table", None)
    if table is None:
        table = []
        for template, operations in app.openapi().get("paths", {}).items():
            regex = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
            table.append((re.compile(f"^{regex}$"), template, template.count("{"), {m.upper() for m in operations}))
        app.state.path_table = table
    return table


def _matches(app, path: str) -> list[tuple[str, set[str]]]:
    """The documented templates matching `path`, the most literal ones only, as routing chooses:
    /v1/merges/plan is not /v1/merges/{run_id}."""
    matches = [(params, template, m) for regex, template, params, m in _path_table(app) if regex.match(path)]
    fewest = min((params for params, _, _ in matches), default=0)
    return [(template, m) for params, template, m in matches if params == fewest]


def route_template(app, path: str) -> str | None:
    """The OpenAPI path template a request path is served by (a bounded metrics label), or None."""
    matches = _matches(app, path)
    return matches[0][0] if matches else None


def allowed_methods(request: Request) -> list[str]:
    """The methods the OpenAPI schema documents for this path (plus HEAD with GET), for a 405's
    `Allow` header: all of them, not only those of the first route whose path matched."""
    methods = set().union(*(m for _, m in _matches(request.app, request.scope["path"])))
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods)


# Errors whose message is the whole story: exception type -> (HTTP status, error code).
PLAIN_ERRORS = {
    UnknownStageError: (422, "unknown_stage"),
    InvalidTextError: (422, "invalid_text"),
    DatabaseUnavailableError: (503, "database_unavailable"),
    SchemaMismatchError: (409, "schema_mismatch"),
    StalePlanError: (409, "stale_plan"),
    WriteConflictError: (409, "conflict"),
    ConfigurationError: (503, "misconfigured"),
    LLMError: (502, "llm_error"),
    CatalogNotFoundError: (404, "catalog_not_found"),
    CatalogBusyError: (409, "conflict"),
    GatewayCatalogError: (403, "gateway_catalog"),
    DatabaseMemoryError: (503, "database_out_of_memory"),
    DependencyRunNotFoundError: (404, "run_not_found"),
    MergeRunNotFoundError: (404, "run_not_found"),
}

HTTP_CODES = {
    400: "invalid_json",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
}


def _plain_handler(status: int, code: str):
    async def handler(_: Request, exc: Exception):
        return error_body(status, code, clip(str(exc), 2000, quote=False))

    return handler


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def validation(_: Request, exc: RequestValidationError):
        raw = exc.errors()
        if any(e.get("type") == "json_invalid" for e in raw):
            ctx = next(e.get("ctx") or {} for e in raw if e.get("type") == "json_invalid")
            return error_body(400, "invalid_json", f"the body is not valid JSON: {ctx.get('error', 'parse error')}")
        errors = [
            {"field": _field(e["loc"]), "message": clip(e["msg"], 500, quote=False), "type": e["type"]}
            for e in raw[:50]
        ]
        detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors[:10])
        return error_body(422, "validation_error", detail, errors=jsonable_encoder(errors))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        headers = dict(exc.headers or {})
        detail = str(exc.detail)
        if exc.status_code == 405:
            allowed = allowed_methods(request)
            if allowed:  # a path outside the schema (/docs ...) keeps the Allow of its route
                headers["Allow"] = ", ".join(allowed)
        if exc.status_code == 400 and detail == "There was an error parsing the body":
            detail = "the body could not be parsed as JSON (not UTF-8 text, or nested too deeply)"
        return error_body(exc.status_code, HTTP_CODES.get(exc.status_code, "http_error"), detail, headers)

    @app.exception_handler(ToolNotFoundError)
    async def not_found(_: Request, exc: ToolNotFoundError):
        return error_body(
            404,
            "tool_not_found",
            f"tool not found: {clip(exc.name, MAX_ECHO)}",
            name=exc.name if len(exc.name) <= MAX_ECHO else None,
        )

    @app.exception_handler(AmbiguousToolError)
    async def ambiguous(_: Request, exc: AmbiguousToolError):
        return error_body(
            409,
            "ambiguous_tool",
            f"{str(exc).splitlines()[0]}: {', '.join(exc.catalogs)}",
            problems=exc.problems,
            catalogs=exc.catalogs,
        )

    @app.exception_handler(ToolConflictError)
    async def conflict(_: Request, exc: ToolConflictError):
        return error_body(
            409, "conflict", f"{str(exc).splitlines()[0]}: {'; '.join(exc.problems)}", problems=exc.problems
        )

    @app.exception_handler(DocumentTooLargeError)
    async def document_too_large(_: Request, exc: DocumentTooLargeError):
        return error_body(413, "document_too_large", clip(str(exc).split("\n")[0], 2000, quote=False))

    @app.exception_handler(CatalogError)
    async def invalid_tool(_: Request, exc: CatalogError):
        message = str(exc).split("\n")[0]
        problems = [clip(p, 500, quote=False) for p in exc.problems[:100]]
        detail = f"{message}: {'; '.join(problems[:10])}" if problems else message
        return error_body(422, "invalid_tool", detail, problems=problems)

    for exc_type, (status, code) in PLAIN_ERRORS.items():
        app.add_exception_handler(exc_type, _plain_handler(status, code))

    @app.exception_handler(Neo4jError)
    async def neo4j_failed(_: Request, exc: Neo4jError):
        log.error("Neo4j error: %s", exc, exc_info=exc)
        return error_body(500, "internal_error", f"Neo4j rejected the query: {exc.code}")

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception):  # the body of any 500 is an Error too
        log.error("unexpected error: %s", exc, exc_info=exc)
        return error_body(500, "internal_error", f"unexpected {type(exc).__name__}; see the server log")
