"""OpenAPI import: a parameter that is an `apiKey` security scheme's credential (the name and place the scheme
declares: Dawarich's `api_key` query parameter on every operation, Nomad's `X-Nomad-Token` header) is the caller's
key, not an input a tool hands out, and is not kept; other parameters, other places and other scheme types are.
Made-up specs, no database."""

from __future__ import annotations

import pytest

from kg_tools.loaders import openapi

KEY = {"name": "api_key", "in": "query", "required": True, "schema": {"type": "string"}}
TOKEN = {"name": "X-Acme-Token", "in": "header", "schema": {"type": "string"}}
AREA = {"name": "area_id", "in": "path", "required": True, "schema": {"type": "string"}}
AREA_KEY = ("area_id", "path")


def _parameters(schemes: object, params: list[dict]) -> list[tuple[str, str]]:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "components": {"securitySchemes": schemes},
        "paths": {"/areas/{area_id}": {"get": {"operationId": "getArea", "parameters": params}}},
    }
    (tool,) = openapi.entries(spec, "spec.json")
    return [(p["name"], p["in"]) for p in tool["parameters"]]


def test_the_credential_of_an_api_key_scheme_is_not_kept():
    schemes = {
        "key": {"type": "apiKey", "name": "api_key", "in": "query"},
        "token": {"type": "apiKey", "name": "x-acme-token", "in": "header"},  # header names: any case
    }
    assert _parameters(schemes, [KEY, TOKEN, AREA]) == [AREA_KEY]


def test_a_parameter_of_the_name_in_another_place_or_under_another_scheme_type_is_kept():
    schemes = {
        "key": {"type": "apiKey", "name": "api_key", "in": "header"},  # the key in a header, not the query
        "bearer": {"type": "http", "scheme": "bearer"},
        "oauth": {"type": "oauth2", "name": "X-Acme-Token", "flows": {}},
    }
    assert _parameters(schemes, [KEY, TOKEN, AREA]) == [("api_key", "query"), ("X-Acme-Token", "header"), AREA_KEY]


@pytest.mark.parametrize(
    "schemes", [None, [], "x", {"a": None}, {"a": {"type": "apiKey"}}, {"a": {"type": "apiKey", "name": 5}}]
)
def test_odd_security_schemes_change_nothing(schemes):
    assert _parameters(schemes, [KEY, AREA]) == [("api_key", "query"), AREA_KEY]


def test_accept_content_type_and_authorization_headers_are_ignored_as_the_specification_says():
    headers = [
        {"name": n, "in": "header", "schema": {"type": "string"}} for n in ("Authorization", "accept", "Content-Type")
    ]
    query = {
        "name": "authorization",
        "in": "query",
        "schema": {"type": "string"},
    }  # a query parameter of the name stays
    assert _parameters({}, [*headers, query, TOKEN, AREA]) == [
        ("authorization", "query"),
        ("X-Acme-Token", "header"),
        AREA_KEY,
    ]
