"""Cross-site requests and DNS rebinding (issue 23, item 5) against the real Neo4j: a cross-origin text/plain replace cannot wipe a catalog, allowed origins may write, a real uvicorn on loopback answers only its own names."""

from __future__ import annotations

import json

import httpx
import pytest
from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from tests.support.http_server import serve_in_thread

CATALOG = [{"name": f"t{i}", "description": f"tool number {i}"} for i in range(3)]


# -- the rules (no server) ---------------------------------------------------------------------------


@pytest.fixture
def client(settings, graph, embedder, empty_graph):
    with TestClient(create_app(settings, graph=graph, embedder=embedder)) as c:
        assert c.post("/v1/catalogs/victim/import", json=CATALOG).status_code == 200
        yield c


def victim_tools(graph) -> int:
    return graph.read("MATCH (t:Tool {catalog: 'victim'}) RETURN count(t) AS n")[0]["n"]


@pytest.mark.integration
def test_a_cross_origin_text_plain_replace_cannot_wipe_a_catalog(client, graph):
    """The issue's attack: a page on evil.example POSTs `[]` as text/plain with ?replace=true."""
    attack = client.post(
        "/v1/catalogs/victim/import?replace=true",
        content=b"[]",
        headers={"Origin": "https://evil.example", "Content-Type": "text/plain;charset=UTF-8"},
    )
    assert (attack.status_code, attack.json()["error"]) == (403, "forbidden_origin")
    no_origin = client.post(
        "/v1/catalogs/victim/import?replace=true", content=b"[]", headers={"Content-Type": "text/plain"}
    )
    assert (no_origin.status_code, no_origin.json()["error"]) == (415, "unsupported_media_type")
    form = client.put("/v1/tools/t0", content=b"a=b", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415
    assert victim_tools(graph) == 3
    # the server's own origin (its /docs page) and clients without an Origin still write
    same = client.post(
        "/v1/catalogs/victim/import",
        content=json.dumps(CATALOG[:1]),
        headers={"Origin": "http://testserver", "Content-Type": "application/json"},
    )
    assert same.status_code == 200, same.text
    yaml_import = client.post(
        "/v1/catalogs/victim/import",
        content="- name: t0\n  description: tool number 0\n",
        headers={"Content-Type": "application/yaml"},
    )
    assert yaml_import.status_code == 200, yaml_import.text
    assert (
        client.put("/v1/tools/t9", content="name: t9", headers={"Content-Type": "application/yaml"}).status_code == 415
    )
    assert client.delete("/v1/tools/t2", headers={"Origin": "https://evil.example"}).status_code == 403
    assert victim_tools(graph) == 3
    assert client.get("/v1/tools", headers={"Origin": "https://evil.example"}).status_code == 200  # reads pass


@pytest.mark.integration
def test_allowed_origins_may_write(settings, graph, embedder, empty_graph):
    allowed = settings.model_copy(update={"api_allowed_origins": ["https://app.example.org"]})
    with TestClient(create_app(allowed, graph=graph, embedder=embedder)) as c:
        ok = c.post("/v1/catalogs/victim/import", json=CATALOG, headers={"Origin": "https://app.example.org"})
        assert ok.status_code == 200, ok.text
        assert (
            c.post("/v1/catalogs/victim/import", json=[], headers={"Origin": "https://other.example"}).status_code
            == 403
        )


@pytest.mark.integration
def test_real_uvicorn_on_loopback_answers_only_its_own_names(settings, graph, embedder, empty_graph):
    """DNS rebinding: evil.example re-pointed at 127.0.0.1 reaches the socket, but its requests carry
    `Host: evil.example` and are refused before anything runs, reads included."""
    served = settings.model_copy(update={"api_allowed_hosts": None, "api_host": "127.0.0.1"})
    with serve_in_thread(create_app(served, graph=graph, embedder=embedder)) as url:
        port = url.rsplit(":", 1)[1]
        assert httpx.get(f"{url}/v1/tools").status_code == 200
        assert httpx.get(f"{url}/v1/tools", headers={"Host": f"localhost:{port}"}).status_code == 200
        rebound = httpx.get(f"{url}/v1/tools", headers={"Host": f"evil.example:{port}"})
        assert (rebound.status_code, rebound.json()["error"]) == (421, "misdirected_request")
        write = httpx.post(
            f"{url}/v1/catalogs/victim/import",
            content=b"[]",
            headers={"Host": f"evil.example:{port}", "Content-Type": "application/json"},
        )
        assert write.status_code == 421
        cross = httpx.post(
            f"{url}/v1/catalogs/victim/import?replace=true",
            content=b"[]",
            headers={"Origin": "https://evil.example", "Content-Type": "text/plain"},
        )
        assert cross.status_code == 403
        assert graph.read("MATCH (t:Tool) RETURN count(t) AS n")[0]["n"] == 0
