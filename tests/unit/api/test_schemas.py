"""Every API route declares its response (issue 22 item 4): each operation of the OpenAPI schema has a
non-empty 2xx JSON schema (a 204 has no body), and the models of stored records (inference and merge
runs) give back exactly the keys stored, none added or dropped. Unit tests: no Neo4j."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from kg_tools.api.schemas import DependencyRun, MergePlan, MergeRun
from kg_tools.settings import Settings


@pytest.fixture(scope="module")
def openapi() -> dict:
    return TestClient(create_app(Settings(api_allowed_hosts=["testserver"]))).get("/openapi.json").json()


def operations(openapi: dict):
    for path, ops in openapi["paths"].items():
        for method, operation in ops.items():
            yield f"{method.upper()} {path}", operation


def test_every_operation_has_a_typed_2xx_response(openapi):
    untyped = []
    for op, operation in operations(openapi):
        ok = {code: r for code, r in operation["responses"].items() if code.startswith("2")}
        assert ok, op
        for code, response in ok.items():
            if code == "204":
                assert "content" not in response, op  # no body
                continue
            schema = response.get("content", {}).get("application/json", {}).get("schema", {})
            if not schema:
                untyped.append(f"{op} {code}")
    assert not untyped, untyped
    assert len(list(operations(openapi))) >= 16


def test_a_typed_response_is_a_named_model(openapi):
    schemas = openapi["components"]["schemas"]
    for name in ("Health", "Readiness", "ImportResult", "InferResponse", "DependencyRunList", "MergePlan"):
        assert name in schemas, name
    plan = schemas["MergePlan"]
    assert "pairs" not in plan["required"] and {"run", "clusters_detail", "notes"} <= set(plan["required"])


def test_stored_runs_keep_exactly_their_keys():
    dependency_run = {
        "id": "deps-1",
        "created": "2026-11-25T05:00:00+00:00",
        "catalog": "*",
        "method": "offline",
        "edges": 3,
        "some_future_property": [1, 2],
        "status": "applied",
        "edges_in_graph": 0,
        "stale": True,
    }
    assert DependencyRun.model_validate(dependency_run).model_dump(exclude_unset=True) == dependency_run
    merge_run = {"id": "merge-1", "name": "merge-1", "theta": 0.82, "links": 4, "writer": "offline"}
    assert MergeRun.model_validate(merge_run).model_dump(exclude_unset=True) == merge_run


def test_a_plan_without_explain_has_no_pairs_key():
    plan = {
        "run": "merge-1",
        "theta": 0.82,
        "top_k": 30,
        "catalog": None,
        "classifier": "offline-rule",
        "validator": "offline",
        "writer": "offline",
        "tools_before": 2,
        "tools_after": 2,
        "candidates": 0,
        "accepted_pairs": 0,
        "clusters": 0,
        "merged": 0,
        "timing_s": {"read_tools": 0.1},
        "notes": [],
        "clusters_detail": [],
    }
    assert MergePlan.model_validate(plan).model_dump(exclude_unset=True) == plan
