"""GET /v1/merges, the dry-run plan, and the key-protected apply/undo (real Neo4j)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from tests.conftest import graph_snapshot
from tests.integration.test_merge import geometry_graph  # noqa: F401  (fixture)

pytestmark = pytest.mark.integration


@pytest.fixture
def locked(settings, geometry_graph, embedder):  # noqa: F811
    with TestClient(
        create_app(settings.model_copy(update={"api_key": "s3cret"}), graph=geometry_graph, embedder=embedder)
    ) as c:
        yield c


def test_merges_endpoints(locked, geometry_graph):  # noqa: F811
    before = graph_snapshot(geometry_graph)
    auth = {"Authorization": "Bearer s3cret"}
    assert locked.get("/v1/merges").json() == {"runs": []}
    plan = locked.get("/v1/merges/plan", params={"offline": True}, headers=auth).json()
    assert plan["classifier"] == "offline-rule" and plan["clusters"] == 1
    assert plan["clusters_detail"][0]["canonical"] == "calcTriangleArea"
    assert graph_snapshot(geometry_graph) == before  # a dry run writes nothing

    assert locked.post("/v1/merges", json={"offline": True}).status_code == 401
    assert (
        locked.post("/v1/merges", json={"offline": True}, headers={"Authorization": "Bearer wrong"}).status_code == 403
    )
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


def test_merge_plan_needs_the_key_and_is_bounded(locked, geometry_graph):  # noqa: F811
    """Issue #8 item 11: the plan is an expensive read (theta 0.01, top_k 200 took 7.2 s and 13 MB on
    ToolLinkOS): with a key set it needs the key, and theta/top_k are bounded in schema and server."""
    auth = {"Authorization": "Bearer s3cret"}
    assert locked.get("/v1/merges/plan").status_code == 401
    assert locked.get("/v1/merges/plan", headers={"Authorization": "Bearer wrong"}).status_code == 403
    for params, field in [
        ({"theta": 0.01}, "theta"),
        ({"top_k": 200}, "top_k"),
        ({"top_k": 0}, "top_k"),
        ({"theta": 1.5}, "theta"),
    ]:
        r = locked.get("/v1/merges/plan", params=params, headers=auth)
        assert (r.status_code, r.json()["error"], r.json()["errors"][0]["field"]) == (422, "validation_error", field)
    assert locked.post("/v1/merges", json={"theta": 0.01}, headers=auth).status_code == 422
    assert (
        locked.get("/v1/merges/plan", params={"theta": 0.5, "top_k": 50, "offline": True}, headers=auth).status_code
        == 200
    )
    parameters = {
        p["name"]: p["schema"]
        for p in locked.get("/openapi.json").json()["paths"]["/v1/merges/plan"]["get"]["parameters"]
    }
    assert (parameters["theta"]["minimum"], parameters["theta"]["maximum"]) == (0.5, 1.0)
    assert (parameters["top_k"]["minimum"], parameters["top_k"]["maximum"]) == (1, 50)
