"""OpenAI tool lists: [{"type": "function", "function": {name, description, parameters}}] or the
bare function objects (also {"tools": [...]}). One catalog entry per function; the original JSON
Schema is kept as `input_schema`."""

from __future__ import annotations

from pathlib import Path

from kg_tools.errors import CatalogError
from kg_tools.loaders.common import CatalogSource, read_json
from kg_tools.loaders.json_schema import check_schema, object_parameters


def tool_entry(item, n: int) -> dict:
    where = f"tool #{n}"
    if not isinstance(item, dict):
        raise CatalogError(f"{where}: expected an object, got {type(item).__name__}")
    if "function" in item:
        if item.get("type", "function") != "function":
            raise CatalogError(f"{where}: type {item.get('type')!r} is not 'function'")
        item = item["function"]
        if not isinstance(item, dict):
            raise CatalogError(f"{where}: 'function' must be an object")
    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CatalogError(f"{where}: a function needs a name")
    schema = item.get("parameters") or {}
    check_schema(schema, f"{where} ({name})", "parameters")
    entry = {
        "name": name,
        "description": item.get("description") or "",
        "parameters": object_parameters(schema, f"{where} ({name})"),
        "func_type": "regular",
        "depends_on": [],
        "input_schema": schema,
    }
    if item.get("strict") is not None:  # structured outputs: the arguments follow the schema exactly
        entry["strict"] = item["strict"]
    return entry


def entries(data) -> list[dict]:
    if isinstance(data, dict) and isinstance(data.get("tools"), list):
        data = data["tools"]
    if not isinstance(data, list):
        raise CatalogError('an OpenAI tool list must be a JSON list of tools (or {"tools": [...]})')
    return [tool_entry(item, n) for n, item in enumerate(data)]


def load(path: Path, catalog: str | None = None) -> CatalogSource:
    path = Path(path)
    return CatalogSource(catalog or path.stem, entries(read_json(path)), [], [str(path)])
