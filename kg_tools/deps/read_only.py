"""Request-body fields the spec marks `readOnly`: what the server sends back, never what a caller gives.

An OpenAPI schema reused for a create's body and its answer marks the server's own fields `readOnly: true`
(Mollie's `subscription-request`: `id`, `resource`, `status`, `_links`; a HAL resource's `_links`). The loader drops
`readOnly` properties *inside* a body object (loaders/json_schema.writable) but keeps the body's own top-level
properties as parameters, each with its schema in `input_schema`; those marked `readOnly` want no provider."""

from __future__ import annotations


def _read_only(p: dict, props: dict) -> bool:
    schema = props.get(p.get("name"))
    return p.get("in") == "body" and isinstance(schema, dict) and schema.get("readOnly") is True


def writable_arguments(parameters: list[dict], input_schema: dict | None) -> tuple[list[dict], dict | None]:
    """The parameters and input schema without the top-level body fields marked `readOnly` (a path, query or header
    parameter of that name stays: the loader keeps the path's `customerId` over the body's read-only one)."""
    props = (input_schema or {}).get("properties")
    if not isinstance(props, dict):
        return parameters, input_schema
    gone = {str(p.get("name")) for p in parameters if _read_only(p, props)}
    if not gone:
        return parameters, input_schema
    kept = [p for p in parameters if str(p.get("name")) not in gone]
    schema = {**(input_schema or {}), "properties": {k: v for k, v in props.items() if k not in gone}}
    required = schema.get("required")
    if isinstance(required, list):
        schema["required"] = [r for r in required if r not in gone]
    return kept, schema
