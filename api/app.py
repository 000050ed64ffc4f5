"""The FastAPI application: `create_app(settings)` (uvicorn factory: `api.app:create_app`)."""

from __future__ import annotations

import re
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.exceptions import HTTPException as StarletteHTTPException

from kg_tools import services as wiring  # called through the module: tests spy on wiring.build_services
from kg_tools.api.errors import (
    DESCRIPTIONS,
    FORBIDDEN_ORIGIN,
    HTTP_CODES,
    error_body,
    install_error_handlers,
    route_template,
)
from kg_tools.api.http import BodyLimit, RawPath
from kg_tools.api.routers import catalogs, deps, health, merges, retrieve, tools
from kg_tools.api.security import UNSAFE_METHODS, RequestGuard, default_allowed_hosts
from kg_tools.browser import MOUNT_PATH, guide_app
from kg_tools.loaders.bounded import MAX_EXPANSION_BYTES
from kg_tools.settings import Settings
from kg_tools.telemetry import MetricsMiddleware, setup_tracing

IMPORT_PATH = re.compile(r"^/v1/catalogs/[^/]+/import$")

DESCRIPTION = """Graph RAG-Tool Fusion over a Neo4j tool graph: send what the agent needs to do, get back
the tools it needs **including their dependencies**, each with its original spec and an OpenAI
function-calling schema. Writes (PUT/POST/DELETE, except retrieval) and the merge plan need
`Authorization: Bearer <KG_TOOLS_API_KEY>` when the server sets that key.

Every error is a JSON `Error` body `{"error": <code>, "detail": <message>, ...}`: 400 body not JSON,
401/403 key missing/wrong, 403 `forbidden_origin` a write sent by a web page of another origin,
404 not found, 405 method not allowed, 409 conflict with the graph, 413 body too large (by default
1 MiB, 20 MiB for a catalog import; each operation's 413 states this server's limit; an import whose
YAML aliases or `$ref`s expand too far is 413 `document_too_large`), 415 a body that is not JSON (or
YAML, for an import), 421 a `Host` this server does not answer to (DNS rebinding), 422 invalid field
(`errors` names each), 503 Neo4j unreachable (answered at once). See docs/security.md."""


# A route's 403 text that names the API key before its other reason (api/routers/tools.py PUT).
KEY_PREFIX = "wrong api key, or "


def _keyless(operation: dict) -> None:
    operation.pop("security", None)
    responses = operation.get("responses", {})
    responses.pop("401", None)
    forbidden = responses.get("403", {}).get("description")
    if forbidden == DESCRIPTIONS[403]:
        del responses["403"]
    elif forbidden and forbidden.lower().startswith(KEY_PREFIX):  # "wrong API key, or <another reason>"
        reason = forbidden[len(KEY_PREFIX) :]
        responses["403"]["description"] = reason[:1].upper() + reason[1:]


def _guard_responses(operation: dict, unsafe: bool) -> None:
    """What api/security.py's RequestGuard may answer, documented on each operation."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    responses = operation.setdefault("responses", {})
    responses.setdefault("421", {"description": DESCRIPTIONS[421], "content": error})
    if unsafe:
        forbidden = responses.setdefault("403", {"description": "", "content": error})
        forbidden["description"] = "; ".join(filter(None, [forbidden["description"], FORBIDDEN_ORIGIN]))
        responses.setdefault("415", {"description": DESCRIPTIONS[415], "content": error})


def body_limit(settings: Settings, path: str) -> int:
    """The largest request body a route takes: a catalog import, or any other."""
    return settings.api_max_import_bytes if IMPORT_PATH.match(path) else settings.api_max_body_bytes


def _openapi(app: FastAPI, settings: Settings) -> dict[str, Any]:
    """FastAPI's schema, made to say what THIS server accepts: without an LLM, `method: llm` of
    POST /v1/deps/infer is refused (422), so the schema does not offer it; without KG_TOOLS_API_KEY no
    operation needs auth (no bearer scheme, no 401/403 for a key); each 413 states the body limit of its
    route (KG_TOOLS_API_MAX_BODY_BYTES / KG_TOOLS_API_MAX_IMPORT_BYTES); 403/415/421 of api/security.py."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    schema = FastAPI.openapi(app)
    if not settings.llm_configured:
        infer_method = schema["components"]["schemas"]["InferRequest"]["properties"]["method"]
        infer_method["enum"] = [m for m in infer_method["enum"] if m != "llm"]
        infer_method["description"] += " `llm` only when the server has an LLM (OPENAI_BASE_URL)."
    if not settings.api_key:  # nothing needs a key: the schema states no auth (no 401, no bearer scheme)
        schema.get("components", {}).pop("securitySchemes", None)
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if not settings.api_key:
                _keyless(operation)
            _guard_responses(operation, method.upper() in UNSAFE_METHODS)
            too_large = operation.get("responses", {}).get("413")
            if too_large is not None:
                too_large["description"] = f"The request body is larger than {body_limit(settings, path):,} bytes"
                if IMPORT_PATH.match(path):
                    too_large["description"] += (
                        f" (`payload_too_large`), or YAML aliases or `$ref`s would expand the document by more "
                        f"than {MAX_EXPANSION_BYTES:,} characters (`document_too_large`); nothing written"
                    )
    return schema


async def static_error(_, exc: StarletteHTTPException):
    return error_body(
        exc.status_code, HTTP_CODES.get(exc.status_code, "http_error"), str(exc.detail), dict(exc.headers or {})
    )


class KgToolsAPI(FastAPI):
    """The app: its OpenAPI schema says what this server accepts (`_openapi`)."""

    def openapi(self) -> dict[str, Any]:
        return _openapi(self, self.state.settings)


def allowed_hosts(settings: Settings) -> list[str]:
    return settings.api_allowed_hosts or default_allowed_hosts(settings.api_host)


def create_app(settings: Settings | None = None, *, graph=None, embedder=None) -> FastAPI:
    """Build the app. A graph gateway/embedder passed in is used as is (and not closed by the app)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        setup_tracing("kg-tools-api")
        services = wiring.build_services(settings, graph=graph, embedder=embedder)
        app.state.graph, app.state.embedder = services.graph, services.embedder
        app.state.pipeline, app.state.tool_store = services.pipeline, services.store
        app.state.embedder.embed_query("warm up")  # the first encode pays one-off costs
        if hasattr(app.state.embedder, "start_query_batching"):
            app.state.embedder.start_query_batching(
                settings.embed_batch_window_ms, settings.embed_max_batch, settings.embed_workers
            )
        app.state.pipeline.warm_up()  # before the first request is accepted
        try:
            yield
        finally:
            services.close()

    app = KgToolsAPI(title="kg-tools", version="0.1.0", description=DESCRIPTION, lifespan=lifespan)
    app.state.settings = settings
    install_error_handlers(app)

    # innermost: it sees the route the router matched; labelled by the OpenAPI path template
    app.add_middleware(MetricsMiddleware, route_of=lambda scope: route_template(app, scope["path"]))
    app.add_middleware(BodyLimit, limit_for=lambda path: body_limit(settings, path))
    app.add_middleware(
        RequestGuard,
        allowed_hosts=allowed_hosts(settings),
        allowed_origins=settings.api_allowed_origins,
        yaml_allowed=lambda path: bool(IMPORT_PATH.match(path)),
    )  # Host, Origin, Content-Type
    app.add_middleware(RawPath)  # outermost: the body limit and the routes see the path as sent
    app.include_router(health.router)
    app.include_router(retrieve.router, prefix="/v1")
    app.include_router(tools.router, prefix="/v1")
    app.include_router(merges.router, prefix="/v1")
    app.include_router(catalogs.router, prefix="/v1")
    app.include_router(deps.router, prefix="/v1")
    # The Neo4j Browser guide and style (static, readable cross-origin; not part of the OpenAPI schema);
    # an unknown file is a JSON `Error` 404 like everywhere else.
    app.mount(MOUNT_PATH, guide_app(exception_handlers={StarletteHTTPException: static_error}))
    return app
