"""Loading the optional stage plugins and checking a request's stages before it runs."""
from __future__ import annotations

import importlib

from kg_tools.retrieval.pipeline import STAGES, UnknownStageError
from kg_tools.retrieval.request import RetrievalRequest

PLUGIN_MODULES = ("kg_tools.retrieval.stages",)


def load_stage_plugins() -> list[str]:
    """Import the modules that register extra stages (rerankers, transforms) when they exist."""
    loaded = []
    for name in PLUGIN_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        loaded.append(name)
    return loaded


def check_stages(request: RetrievalRequest) -> None:
    """Unknown extra stage or unavailable reranker -> UnknownStageError naming it (HTTP 422)."""
    wanted = list(request.stages) + ([f"rerank-{request.rerank}"] if request.rerank != "none" else [])
    unknown = [s for s in wanted if s not in STAGES]
    if unknown:
        raise UnknownStageError(f"unknown stage(s): {', '.join(unknown)}; available: "
                                f"{', '.join(sorted(STAGES)) or 'none registered'}")
