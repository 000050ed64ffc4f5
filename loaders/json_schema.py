"""JSON Schema -> catalog parameters, shared by the OpenAI-tools, OpenAPI and MCP importers.

An object schema's top-level properties become parameters {name, type, description, required};
enum and default are kept; nested objects and arrays stay one parameter of type object/array.
"""
from __future__ import annotations

import re
from typing import Any

from kg_tools.errors import CatalogError

# OpenAI function names: ^[a-zA-Z0-9_-]{1,64}$; we use the same alphabet for every importer.
_INVALID = re.compile(r"[^A-Za-z0-9_-]+")
MAX_TOOL_NAME = 64


def tool_name(raw: str) -> str:
    """A valid tool name from an operationId, 'get /pets/{id}' or an MCP name: runs of other
    characters become one underscore, cut to 64 characters. Empty results are an error."""
    name = _INVALID.sub("_", str(raw)).strip("_")[:MAX_TOOL_NAME].strip("_")
    if not name:
        raise CatalogError(f"cannot make a tool name from {raw!r}")
    return name


def schema_type(schema: dict) -> str | None:
    """The JSON type of a property ('string', 'integer', ...); the first non-null of a type list
    or of anyOf/oneOf alternatives; None when the schema does not say."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind is None:
        for key in ("anyOf", "oneOf", "allOf"):
            for alt in schema.get(key) or []:
                if isinstance(alt, dict) and (alt_kind := schema_type(alt)):
                    return alt_kind
        if "properties" in schema:
            return "object"
    return kind if isinstance(kind, str) else None


def describe(schema: dict) -> str:
    return " ".join(str(schema.get("description") or schema.get("title") or "").split())


def parameter(name: str, schema: Any, required: bool, description: str = "", **extra) -> dict:
    schema = schema if isinstance(schema, dict) else {}
    param = {"name": name, "type": schema_type(schema), "description": description or describe(schema),
             "required": bool(required)}
    if isinstance(schema.get("enum"), list):
        param["enum"] = schema["enum"]
    if "default" in schema:
        param["default"] = schema["default"]
    param.update(extra)
    return param


def object_parameters(schema: Any, where: str, **extra) -> list[dict]:
    """The properties of an object schema as parameters (required from the schema's `required`)."""
    if schema in (None, {}):
        return []
    if not isinstance(schema, dict):
        raise CatalogError(f"{where}: the parameter schema must be a JSON object, got {type(schema).__name__}")
    properties = schema.get("properties") or {}
    if not isinstance(properties, dict):
        raise CatalogError(f"{where}: 'properties' must be an object")
    required = set(schema.get("required") or [])
    return [parameter(name, prop, name in required, **extra) for name, prop in properties.items()]
