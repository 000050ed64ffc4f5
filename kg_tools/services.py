"""The one wiring of what serves retrieval: the graph gateway (with neomodel bound to it), the embedder,
the retrieval `Pipeline` and the `ToolStore`, built from settings the same way for the REST API
(api/app.py), the MCP server and gateway (kg_tools/mcp_server.py) and the CLI (commands/context.py)."""

from __future__ import annotations

from dataclasses import dataclass

from kg_tools import ogm
from kg_tools.embeddings import Embedder, embedder_from_settings
from kg_tools.graph import Graph
from kg_tools.retrieval.pipeline import Pipeline
from kg_tools.settings import Settings
from kg_tools.tool_store import ToolStore


@dataclass
class Services:
    settings: Settings
    graph: Graph
    embedder: Embedder
    pipeline: Pipeline
    store: ToolStore
    owns_graph: bool  # the graph was connected here: close() closes it

    def close(self) -> None:
        if self.owns_graph:
            self.graph.close()


def build_services(
    settings: Settings,
    *,
    graph: Graph | None = None,
    embedder: Embedder | None = None,
    embed_threads: int | None = None,
    verify: bool = False,
) -> Services:
    """A graph gateway or embedder passed in is used as it is (and not closed by close()); otherwise
    the graph is connected (`verify`: check the server answers now) and the embedder loaded with
    `embed_threads` (default settings.embed_threads; 0: onnxruntime's choice)."""
    owns_graph = graph is None
    graph = ogm.bind(graph if graph is not None else Graph.connect(settings, verify=verify))
    if embedder is None:
        embedder = embedder_from_settings(settings, settings.embed_threads if embed_threads is None else embed_threads)
    return Services(settings, graph, embedder, Pipeline(graph, embedder, settings), ToolStore(graph), owns_graph)
