"""What every command gets: settings plus the lazily created graph gateway and embedder.

Kept apart from kg_tools.cli so that command modules never import the CLI that imports them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kg_tools.settings import Settings

if TYPE_CHECKING:
    from kg_tools.embeddings import Embedder
    from kg_tools.graph import Graph
    from kg_tools.retrieval.pipeline import Pipeline
    from kg_tools.services import Services


class AppContext:
    """Settings plus lazily created graph gateway, embedder and retrieval pipeline, shared by the
    commands of one run (the pipeline wired by kg_tools.services, as for the API and MCP server)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self._graph: Graph | None = None
        self._embedder: Embedder | None = None
        self._services: Services | None = None

    @property
    def graph(self) -> Graph:
        if self._graph is None:
            from kg_tools.graph import Graph

            self._graph = Graph.connect(self.settings)
        return self._graph

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            from kg_tools.embeddings import embedder_from_settings

            self._embedder = embedder_from_settings(self.settings)
        return self._embedder

    @property
    def services(self) -> Services:
        if self._services is None:
            from kg_tools.services import build_services

            self._services = build_services(self.settings, graph=self.graph, embedder=self.embedder)
        return self._services

    @property
    def pipeline(self) -> Pipeline:
        return self.services.pipeline

    def close(self):
        if self._graph is not None:
            self._graph.close()


pass_app = click.make_pass_decorator(AppContext)
