"""Shared fixtures. Integration tests get a REAL Neo4j:
NEO4J_URI if set; else testcontainers (neo4j:5.26-community) if a Docker engine answers; else the
local Maven-assembled server, started on free ports in a temp home and stopped after the session."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

import pytest

from kg_tools.embeddings import embedder_from_settings
from kg_tools.graph import Graph
from kg_tools.ingest import LoadMode, load_catalog
from kg_tools.loaders import toollinkos
from kg_tools.neo4j_server import LocalNeo4j
from kg_tools.processes import free_port
from kg_tools.settings import Settings
from tests.support.fake_openai import FakeOpenAI
from tests.support.local_neo4j import local_neo4j, settings_for


@dataclass
class Neo4jService:
    uri: str
    user: str
    password: str
    how: str
    http_url: str | None = None
    guide_port: int | None = None  # local server only: its neo4j.conf points the Browser at this API port


def _docker_answers() -> bool:
    try:
        import docker  # noqa: PLC0415 - optional: only when a Docker engine answers

        client = docker.from_env(timeout=3)
        client.ping()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def neo4j_service(tmp_path_factory):
    if os.environ.get("NEO4J_URI"):
        yield Neo4jService(
            os.environ["NEO4J_URI"],
            os.environ.get("NEO4J_USER", "neo4j"),
            os.environ.get("NEO4J_PASSWORD") or Settings().resolved_password(),
            "NEO4J_URI",
        )
        return
    password = "test-" + secrets.token_hex(8)
    if _docker_answers():
        from testcontainers.neo4j import Neo4jContainer  # noqa: PLC0415 - optional: only when a Docker engine answers

        with Neo4jContainer("neo4j:5.26-community", password=password) as container:
            yield Neo4jService(container.get_connection_url(), "neo4j", password, "testcontainers")
        return

    project_server = LocalNeo4j.from_settings(Settings())
    if not project_server.jars_installed():
        project_server._resolve_jars(print)
    home = tmp_path_factory.mktemp("neo4j-home")
    guide_port = free_port()
    with local_neo4j(
        home,
        password,
        project_server.lib,
        heap="768m",
        pagecache="128m",
        guide_base_url=f"http://127.0.0.1:{guide_port}",
    ) as server:
        yield Neo4jService(
            server.bolt_uri, "neo4j", password, "local", f"http://127.0.0.1:{server.http_port}", guide_port
        )


@pytest.fixture(scope="session")
def settings(neo4j_service) -> Settings:
    return settings_for(
        neo4j_service.uri,
        neo4j_service.user,
        neo4j_service.password,
        # Starlette's TestClient sends `Host: testserver`
        api_allowed_hosts=["127.0.0.1", "localhost", "testserver"],
    )


@pytest.fixture(scope="session")
def graph(settings):
    """The graph gateway on the test server (every read/write of the package goes through one)."""

    with Graph.connect(settings) as g:
        yield g


@pytest.fixture(scope="session")
def embedder(settings):
    return embedder_from_settings(settings)


@pytest.fixture(scope="session")
def datasets(settings) -> Path:
    path = settings.datasets_dir
    if not (path / "toollinkos").is_dir():
        pytest.skip(f"benchmark datasets not found at {path} (set KG_TOOLS_DATASETS)")
    return path


def wipe(graph) -> None:
    graph.write("MATCH (n) DETACH DELETE n")


@pytest.fixture
def empty_graph(graph):
    """An empty graph (schema left in place)."""
    wipe(graph)
    yield graph


def load_toollinkos(graph, embedder, datasets):
    """Replace the graph with ToolLinkOS (embeddings come from the embedder's in-process cache)."""

    source = toollinkos.load(datasets / "toollinkos")
    load_catalog(graph, embedder, source.tools, source.catalog, mode=LoadMode.REPLACE_ALL, log=lambda *_: None)
    return graph


@pytest.fixture
def toollinkos_graph(graph, embedder, datasets):
    """ToolLinkOS loaded, for one test."""
    return load_toollinkos(graph, embedder, datasets)


@pytest.fixture(scope="module")
def tlos(graph, embedder, datasets):
    """ToolLinkOS loaded once for a module whose tests only read it."""
    return load_toollinkos(graph, embedder, datasets)


def graph_snapshot(graph) -> dict:
    """Every node and relationship with labels/type and properties (for 'nothing changed' asserts)."""
    nodes = graph.read("MATCH (n) RETURN elementId(n) AS id, labels(n) AS labels, properties(n) AS props")
    rels = graph.read(
        "MATCH (a)-[r]->(b) RETURN coalesce(a.name, a.id) AS a, type(r) AS type, coalesce(b.name, b.id) AS b, "
        "properties(r) AS props"
    )
    node_set = sorted((sorted(r["labels"]), sorted((k, repr(v)) for k, v in r["props"].items())) for r in nodes)
    rel_set = sorted((r["a"], r["type"], r["b"], sorted((k, repr(v)) for k, v in r["props"].items())) for r in rels)
    return {"nodes": node_set, "relationships": rel_set}


@pytest.fixture
def fake_llm():
    """An OpenAI-compatible server started by the test; script its answers with fake_llm.script(fn)."""

    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def llm_settings(settings, fake_llm):
    """Settings pointing the openai client at the fake server (short timeout, one retry)."""
    return settings.model_copy(
        update={
            "openai_base_url": fake_llm.base_url,
            "openai_api_key": "test",
            "llm_model": "test-model",
            "llm_timeout": 2.0,
            "llm_max_retries": 1,
        }
    )


def pytest_collection_modifyitems(config, items):
    """Every test whose fixture closure reaches the real Neo4j must be marked `integration`
    (so `-m "not integration"` really runs without a server). Fails collection otherwise."""
    unmarked = [
        item.nodeid
        for item in items
        if "neo4j_service" in getattr(item, "fixturenames", ()) and item.get_closest_marker("integration") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "tests that need Neo4j (their fixtures reach neo4j_service) must be marked "
            "@pytest.mark.integration (or module-level pytestmark): " + ", ".join(unmarked)
        )
    # tests/unit holds the unmarked tests, tests/integration the marked ones (docs/testing.md)
    misplaced = [
        item.nodeid
        for item in items
        if (item.get_closest_marker("integration") is None) == item.nodeid.startswith("tests/integration/")
        and item.nodeid.startswith(("tests/unit/", "tests/integration/"))
    ]
    if misplaced:
        raise pytest.UsageError(
            "tests/unit/ is for tests without the integration marker, tests/integration/ for those with it: "
            + ", ".join(misplaced)
        )
