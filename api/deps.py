"""Annotated dependencies: settings, graph gateway, embedder, pipeline, tool store, write authorisation.

The getters only read app.state, so they are `async def`: FastAPI runs a sync dependency in its
threadpool, one thread hand-off per dependency per request (the endpoints themselves stay sync:
their CPU work runs in the threadpool, never on the event loop)."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from kg_tools.embeddings import Embedder
from kg_tools.graph import Graph
from kg_tools.retrieval import Pipeline
from kg_tools.settings import Settings
from kg_tools.tool_store import ToolStore


async def get_settings(request: Request) -> Settings:
    return request.app.state.settings


async def get_graph(request: Request) -> Graph:
    return request.app.state.graph


async def get_embedder(request: Request) -> Embedder:
    return request.app.state.embedder


async def get_pipeline(request: Request) -> Pipeline:
    return request.app.state.pipeline


async def get_tool_store(request: Request) -> ToolStore:
    return request.app.state.tool_store


SettingsDep = Annotated[Settings, Depends(get_settings)]
GraphDep = Annotated[Graph, Depends(get_graph)]
EmbedderDep = Annotated[Embedder, Depends(get_embedder)]
PipelineDep = Annotated[Pipeline, Depends(get_pipeline)]
ToolStoreDep = Annotated[ToolStore, Depends(get_tool_store)]

_bearer = HTTPBearer(auto_error=False, description="KG_TOOLS_API_KEY (only when the server sets one)")


def require_api_key(
    settings: SettingsDep, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]
) -> None:
    """Writes (and the expensive merge plan) need `Authorization: Bearer <KG_TOOLS_API_KEY>` when the key
    is set: 401 without, 403 if wrong."""
    if not settings.api_key:
        return
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise HTTPException(401, "this endpoint needs `Authorization: Bearer <KG_TOOLS_API_KEY>`")
    if not secrets.compare_digest(credentials.credentials.encode(), settings.api_key.encode()):
        raise HTTPException(403, "the bearer token does not match KG_TOOLS_API_KEY")


WriteAccess = Depends(require_api_key)
