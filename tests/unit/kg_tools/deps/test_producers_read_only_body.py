"""A request body's own fields marked `readOnly` want no provider, and a tool a parameter's description links that
takes the very value in its path is no source of it. Mollie's API (`mollie/mollie-api-golang`
`.speakeasy/out.openapi.yaml`) reuses one schema for a create's body and its answer (`subscription-request`: `id`,
`status`, `_links` marked `readOnly`), and its `_links.customer`, `_links.mandate.href`, `_links.payments` were offered
the customer's get, the mandates' list and the payments' list (12 wrong edges); its `profileId` "The identifier
referring to the [profile](get-profile)" was offered `get-profile`, which takes `{profileId}` itself (18 wrong edges
with `customerId` and `mandateId`). docs/dependencies.md, twenty-seventh session: a first contact with unseen specs.
A small spec in Mollie's shapes (HAL `_embedded` lists), read by the OpenAPI loader."""

from __future__ import annotations

import json

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import infer_producers
from kg_tools.loaders.document import load_document
from kg_tools.tool_spec import validate_catalog

LINK = {"type": "object", "properties": {"href": {"type": "string"}, "type": {"type": "string"}}}
PROFILE_ID = {
    "name": "profileId",
    "in": "query",
    "schema": {"type": "string"},
    "description": "The identifier referring to the [profile](get-profile) you wish to retrieve the resources for.",
}


def _page(key: str) -> dict:
    item = {"type": "object", "properties": {"id": {"type": "string"}, "resource": {"type": "string"}}}
    embedded = {"type": "object", "properties": {key: {"type": "array", "items": item}}}
    return {"type": "object", "properties": {"count": {"type": "integer"}, "_embedded": embedded}}


def _answer(schema: dict) -> dict:
    return {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}


def _path(name: str) -> dict:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


def _spec(links_read_only: bool = True) -> dict:
    links = {
        "type": "object",
        "properties": {"customer": LINK, "mandate": LINK, "payments": LINK},
        "readOnly": links_read_only,
    }
    body = {
        "type": "object",
        "properties": {
            "id": {"type": "string", "readOnly": True, "description": "The identifier of this subscription."},
            "status": {"type": "string", "readOnly": True},
            "interval": {"type": "string"},
            "mandateId": {"type": "string", "description": "The mandate used for this subscription, if any."},
            "_links": links,
        },
    }
    one = {"type": "object", "properties": {"id": {"type": "string"}, "resource": {"type": "string"}}}
    paths = {
        "/v2/customers": {"get": {"operationId": "list-customers", "responses": _answer(_page("customers"))}},
        "/v2/customers/{customerId}": {
            "get": {"operationId": "get-customer", "parameters": [_path("customerId")], "responses": _answer(one)}
        },
        "/v2/customers/{customerId}/mandates": {
            "get": {
                "operationId": "list-mandates",
                "parameters": [_path("customerId")],
                "responses": _answer(_page("mandates")),
            }
        },
        "/v2/customers/{customerId}/subscriptions": {
            "post": {
                "operationId": "create-subscription",
                "parameters": [_path("customerId")],
                "requestBody": {"content": {"application/json": {"schema": body}}},
                "responses": _answer(one),
            }
        },
        "/v2/payments": {
            "get": {"operationId": "list-payments", "parameters": [PROFILE_ID], "responses": _answer(_page("payments"))}
        },
        "/v2/profiles": {"get": {"operationId": "list-profiles", "responses": _answer(_page("profiles"))}},
        "/v2/profiles/{profileId}": {
            "get": {"operationId": "get-profile", "parameters": [_path("profileId")], "responses": _answer(one)}
        },
    }
    return {"openapi": "3.1.0", "info": {"title": "payments", "version": "1"}, "paths": paths}


def _edges(spec: dict) -> set[tuple[str, str | None, str]]:
    source = load_document(json.dumps(spec), "mollie_like", "auto", where="mollie_like.json")
    tools = [ToolInfo.from_raw(raw) for raw in validate_catalog(source.tools).raw]
    return {(e.source, e.parameter_name, e.target) for e in infer_producers(tools)}


def test_read_only_body_fields_want_no_provider():
    edges = _edges(_spec())
    assert not [e for e in edges if e[0] == "create-subscription" and str(e[1]).startswith(("_links", "id", "status"))]
    # the writable fields and the path keep theirs
    assert ("create-subscription", "customerId", "list-customers") in edges
    assert ("create-subscription", "mandateId", "list-mandates") in edges


def test_the_same_links_when_not_read_only_are_still_read():
    edges = _edges(_spec(links_read_only=False))
    assert [e for e in edges if e[0] == "create-subscription" and str(e[1]).startswith("_links")]


def test_a_linked_get_that_takes_the_value_is_no_source_of_it():
    edges = _edges(_spec())
    assert ("list-payments", "profileId", "get-profile") not in edges
    assert ("list-payments", "profileId", "list-profiles") in edges
