"""One retrieval plan, one wiring: the API, the MCP server and the CLI run the same pipeline (real Neo4j)."""

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from kg_tools import services
from kg_tools.commands.context import AppContext
from kg_tools.mcp_server import McpBackend
from kg_tools.retrieval import Pipeline


@pytest.mark.integration
def test_one_wiring_for_the_api_the_mcp_server_and_the_cli(graph, embedder, settings, monkeypatch):
    built = []
    real = services.build_services

    def spy(*args, **kwargs):
        built.append(real(*args, **kwargs))
        return built[-1]

    monkeypatch.setattr(services, "build_services", spy)
    with TestClient(create_app(settings, graph=graph, embedder=embedder)) as client:
        assert client.app.state.pipeline is built[-1].pipeline  # type: ignore[attr-defined]
    assert McpBackend(settings, graph=graph, embedder=embedder).pipeline is built[-1].pipeline
    app = AppContext(settings)
    app._graph, app._embedder = graph, embedder
    assert app.pipeline is built[-1].pipeline and app.pipeline is app.pipeline
    assert len(built) == 3
    for wired in built:
        assert isinstance(wired.pipeline, Pipeline) and wired.graph is graph and wired.store.graph is graph
        assert not wired.owns_graph
