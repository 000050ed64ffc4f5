"""A tool spec as an OpenAI function-calling schema."""

from __future__ import annotations

from typing import Any

_JSON_TYPES = {
    "string": "string",
    "str": "string",
    "text": "string",
    "int": "integer",
    "integer": "integer",
    "long": "integer",
    "float": "number",
    "number": "number",
    "double": "number",
    "bool": "boolean",
    "boolean": "boolean",
    "array": "array",
    "list": "array",
    "object": "object",
    "dict": "object",
}


def json_type(raw: str | None) -> str:
    return _JSON_TYPES.get(str(raw or "string").strip().lower(), "string")


def openai_function(spec: dict[str, Any]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    for p in spec.get("parameters") or []:
        prop: dict[str, Any] = {"type": json_type(p.get("type")), "description": p.get("description", "")}
        if prop["type"] == "array":
            prop["items"] = {"type": "string"}
        if p.get("enum"):
            prop["enum"] = p["enum"]
        if "default" in p and p["default"] is not None:
            prop["default"] = p["default"]
        properties[p["name"]] = prop
        if p.get("required"):
            required.append(p["name"])
    return {
        "type": "function",
        "function": {
            "name": spec["name"],
            "description": spec.get("description", ""),
            "parameters": {"type": "object", "properties": properties, "required": required},
        },
    }
