"""GET /v1/merges, the dry-run plan, and the key-protected apply/undo (real Neo4j)."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from tests.conftest import graph_snapshot
from tests.test_merge import geometry_graph  # noqa: F401  (fixture)


@pytest.fixture
def locked(settings, geometry_graph, embedder):  # noqa: F811
    with TestClient(create_app(settings.model_copy(update={"api_key": "s3cret"}), graph=geometry_graph,
                               embedder=embedder)) as c:
        yield c


def test_merges_endpoints(locked, geometry_graph):  # noqa: F811
    before = graph_snapshot(geometry_graph)
    assert locked.get("/v1/merges").json() == {"runs": []}
    plan = locked.get("/v1/merges/plan", params={"offline": True}).json()
    assert plan["classifier"] == "offline-rule" and plan["clusters"] == 1
    assert plan["clusters_detail"][0]["canonical"] == "calcTriangleArea"
    assert graph_snapshot(geometry_graph) == before  # a dry run writes nothing

    assert locked.post("/v1/merges", json={"offline": True}).status_code == 401
    assert locked.post("/v1/merges", json={"offline": True},
                       headers={"Authorization": "Bearer wrong"}).status_code == 403
    auth = {"Authorization": "Bearer s3cret"}
    assert locked.post("/v1/merges", json={"theta": 2}, headers=auth).status_code == 422
    applied = locked.post("/v1/merges", json={"offline": True}, headers=auth).json()
    assert applied["applied"] and applied["merged"] == 2
    again = locked.post("/v1/merges", json={"offline": True}, headers=auth).json()
    assert not again["applied"]
    [run] = locked.get("/v1/merges").json()["runs"]
    assert run["id"] == applied["run"] and run["links"] == 2

    assert locked.delete(f"/v1/merges/{run['id']}").status_code == 401
    undone = locked.delete(f"/v1/merges/{run['id']}", headers=auth).json()
    assert undone == {"run": run["id"], "restored": 1, "unlinked": 2}
    assert locked.delete(f"/v1/merges/{run['id']}", headers=auth).status_code == 404
    assert graph_snapshot(geometry_graph) == before
