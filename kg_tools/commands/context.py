"""What every command gets: settings plus the lazily created graph gateway and embedder.

Kept apart from kg_tools.cli so that command modules never import the CLI that imports them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kg_tools.settings import Settings

if TYPE_CHECKING:
    from kg_tools.embeddings import Embedder
    from kg_tools.graph import Graph


class AppContext:
    """Settings plus lazily created graph gateway and embedder, shared by the commands of one run."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self._graph: Graph | None = None
        self._embedder: Embedder | None = None

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

    def close(self):
        if self._graph is not None:
            self._graph.close()


pass_app = click.make_pass_decorator(AppContext)
