"""Hostile catalog documents (issue 23, items 1 and 8) through the API's import route, against the real Neo4j: refused fast, with memory unchanged."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from tests.unit.loaders.test_hostile_documents import alias_bomb, deep_json, dense_yaml, ref_bomb, response_fan_out


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.fixture
def client(settings, graph, embedder, empty_graph):
    with TestClient(create_app(settings, graph=graph, embedder=embedder)) as c:
        yield c


@pytest.mark.integration
@pytest.mark.parametrize(
    "body, media, status, code",
    [
        (alias_bomb(), "application/yaml", 413, "document_too_large"),
        (ref_bomb(), "application/json", 413, "document_too_large"),
        (deep_json(), "application/json", 422, "invalid_tool"),
        ("x: " + "[" * 3000 + "]" * 3000, "application/yaml", 422, "invalid_tool"),
        ("tools:\n- name: x\x01\n", "application/yaml", 422, "invalid_tool"),  # a control byte (was a 500)
        (response_fan_out(), "application/json", 413, "document_too_large"),
        (dense_yaml(), "application/yaml", 413, "document_too_large"),
    ],
)
def test_the_import_route_refuses_hostile_documents_fast_with_memory_unchanged(
    client, graph, body, media, status, code
):
    before = rss_mib()
    started = time.perf_counter()
    r = client.post("/v1/catalogs/bombs/import", content=body.encode(), headers={"Content-Type": media})
    seconds = time.perf_counter() - started
    assert (r.status_code, r.json()["error"]) == (status, code), r.text
    assert seconds < 10
    assert rss_mib() - before < 50
    assert graph.read("MATCH (t:Tool) RETURN count(t) AS n")[0]["n"] == 0  # nothing written
    if status == 413:  # documented in the schema
        assert (
            "document_too_large"
            in client.get("/openapi.json").json()["paths"]["/v1/catalogs/{name}/import"]["post"]["responses"]["413"][
                "description"
            ]
        )
