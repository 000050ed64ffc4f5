"""The one place where errors become HTTP responses: 422 / 401 / 403 / 404 / 503 with a JSON body
{"error": <code>, "detail": <message>, ...}. Neo4j being unreachable is never a bare 500."""
from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from neo4j.exceptions import Neo4jError
from starlette.exceptions import HTTPException as StarletteHTTPException

from kg_tools.errors import (
    CatalogError,
    CatalogNotFoundError,
    DependencyRunNotFoundError,
    ConfigurationError,
    DatabaseUnavailableError,
    LLMError,
    SchemaMismatchError,
    ToolNotFoundError,
    UnknownStageError,
)

log = logging.getLogger("kg_tools.api")


def error_body(status: int, code: str, detail: str, **extra) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse({"error": code, "detail": detail, **extra}, status_code=status, headers=headers)


def _field(loc) -> str:
    """("body", "k") -> "k"; ("query", "depth") -> "depth"; the location prefix is dropped."""
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        parts = parts[1:]
    return ".".join(parts) or "body"


# Errors whose message is the whole story: exception type -> (HTTP status, error code).
PLAIN_ERRORS = {
    UnknownStageError: (422, "unknown_stage"),
    DatabaseUnavailableError: (503, "database_unavailable"),
    SchemaMismatchError: (409, "schema_mismatch"),
    ConfigurationError: (503, "misconfigured"),
    LLMError: (502, "llm_error"),
    CatalogNotFoundError: (404, "catalog_not_found"),
    DependencyRunNotFoundError: (404, "run_not_found"),
}


def _plain_handler(status: int, code: str):
    async def handler(_: Request, exc: Exception):
        return error_body(status, code, str(exc))

    return handler


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def validation(_: Request, exc: RequestValidationError):
        errors = [{"field": _field(e["loc"]), "message": e["msg"], "type": e["type"]} for e in exc.errors()]
        detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
        return error_body(422, "validation_error", detail, errors=jsonable_encoder(errors))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException):
        code = {401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed"}.get(
            exc.status_code, "http_error")
        return error_body(exc.status_code, code, str(exc.detail))

    @app.exception_handler(ToolNotFoundError)
    async def not_found(_: Request, exc: ToolNotFoundError):
        return error_body(404, "tool_not_found", str(exc), name=exc.name)

    @app.exception_handler(CatalogError)
    async def invalid_tool(_: Request, exc: CatalogError):
        message = str(exc).split("\n")[0]
        detail = f"{message}: {'; '.join(exc.problems)}" if exc.problems else message
        return error_body(422, "invalid_tool", detail, problems=exc.problems)

    for exc_type, (status, code) in PLAIN_ERRORS.items():
        app.add_exception_handler(exc_type, _plain_handler(status, code))

    @app.exception_handler(Neo4jError)
    async def neo4j_failed(_: Request, exc: Neo4jError):
        log.exception("Neo4j error", exc_info=exc)
        return error_body(500, "neo4j_error", f"Neo4j rejected the query: {exc.code}: {exc.message}")
