"""The FastAPI application: `create_app(settings)` (uvicorn factory: `api.app:create_app`)."""
from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI

from api.errors import install_error_handlers
from api.routers import catalogs, deps, health, merges, retrieve, tools
from kg_tools.browser import MOUNT_PATH, guide_app
from kg_tools.settings import Settings


def _warm_up(pipeline) -> None:
    """One default retrieval so Neo4j plans and caches the query before the first agent request
    (a cold plan costs ~1.5 s). A graph that is down or empty is left to /readyz to report."""
    from kg_tools.retrieval import RetrievalRequest

    try:
        pipeline.retrieve(RetrievalRequest(query="warm up"))
    except Exception:  # noqa: BLE001 - start-up must not fail on an unreachable or empty graph
        pass


DESCRIPTION = """Graph RAG-Tool Fusion over a Neo4j tool graph: send what the agent needs to do, get back
the tools it needs **including their dependencies**, each with its original spec and an OpenAI
function-calling schema. Writes (PUT/DELETE) need `Authorization: Bearer <KG_TOOLS_API_KEY>` when the
server sets that key."""


def create_app(settings: Settings | None = None, *, graph=None, embedder=None) -> FastAPI:
    """Build the app. A graph gateway/embedder passed in is used as is (and not closed by the app)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        from kg_tools.embeddings import embedder_from_settings
        from kg_tools.graph import Graph
        from kg_tools.retrieval import Pipeline
        from kg_tools.tool_store import ToolStore

        own_graph = graph is None
        app.state.graph = graph if graph is not None else Graph.connect(settings, verify=False)
        app.state.embedder = embedder if embedder is not None else embedder_from_settings(settings, settings.embed_threads)
        app.state.embedder.embed_query("warm up")  # the first encode pays one-off costs
        if hasattr(app.state.embedder, "start_query_batching"):
            app.state.embedder.start_query_batching(settings.embed_batch_window_ms, settings.embed_max_batch,
                                                    settings.embed_workers)
        app.state.pipeline = Pipeline(app.state.graph, app.state.embedder, settings)
        _warm_up(app.state.pipeline)
        app.state.tool_store = ToolStore(app.state.graph)
        try:
            yield
        finally:
            if own_graph:
                app.state.graph.close()

    app = FastAPI(title="kg-tools", version="0.1.0", description=DESCRIPTION, lifespan=lifespan)
    app.state.settings = settings
    install_error_handlers(app)
    app.include_router(health.router)
    app.include_router(retrieve.router, prefix="/v1")
    app.include_router(tools.router, prefix="/v1")
    app.include_router(merges.router, prefix="/v1")
    app.include_router(catalogs.router, prefix="/v1")
    app.include_router(deps.router, prefix="/v1")
    # The Neo4j Browser guide and style (static, readable cross-origin; not part of the OpenAPI schema).
    app.mount(MOUNT_PATH, guide_app())
    return app
