"""OpenAI tool lists: [{"type": "function", "function": {name, description, parameters}}], the Responses API's
flat {"type": "function", name, parameters}, the bare function objects of the older `functions` list, and
Anthropic's {name, description, input_schema}; as a JSON list, {"tools": [...]}, {"functions": [...]} or JSON
lines (a function-calling dataset's file). One catalog entry per function; the original JSON Schema is kept as
`input_schema`, its parameters read with local `$ref`s (`#/$defs/...`, as Pydantic writes them) followed. A tool
of another type (`web_search`, `code_interpreter`, Anthropic's `bash_20250124` ...) is built in, not a function:
left out with a warning. A function's output schema, when the list gives one (`response`, as the Berkeley
function-calling leaderboard writes it, or `output_schema` / `outputSchema`), is kept as `output_schema`."""

from __future__ import annotations

from pathlib import Path

from kg_tools.errors import CatalogError
from kg_tools.loaders.common import CatalogSource, read_document, reworded, tool_list
from kg_tools.loaders.json_schema import capped_schema, check_schema, nesting_capped, referenced_parameters

# the keys a function's input schema goes by (OpenAI, Anthropic) and its output schema (BFCL, MCP exports)
INPUT_KEYS = ("parameters", "input_schema")
OUTPUT_KEYS = ("response", "output_schema", "outputSchema")
FUNCTION_TYPES = ("function", "custom")  # Anthropic's user-defined tools may say `custom`
# Python's type names, as function-calling datasets write them (BFCL: `"type": "dict"`, `"float"`, `"tuple"`),
# read as the JSON Schema types they stand for; `any` says nothing
PYTHON_TYPES: dict[str, str | None] = {
    "dict": "object",
    "float": "number",
    "tuple": "array",
    "list": "array",
    "int": "integer",
    "str": "string",
    "bool": "boolean",
    "any": None,
}


def built_in(item) -> bool:
    """A tool the provider runs itself (`{"type": "web_search"}`, whatever else it has): a type other than a
    function's and no `function` object (`{"type": "x", "function": {...}}` is a mistake, refused)."""
    return (
        isinstance(item, dict)
        and isinstance(item.get("type"), str)
        and item["type"] not in FUNCTION_TYPES
        and "function" not in item
    )


def input_schema(item: dict, where: str):
    key = next((k for k in INPUT_KEYS if k in item), None)
    schema = item.get(key) if key else None
    check_schema(schema or {}, where, key or "parameters")
    return schema or {}


# the keywords whose value is a schema, an object of schemas or a list of schemas: json_types goes into these
# only, so a value (`default`, `enum`, `examples`, `const` ...) keeps its `type` keys
SCHEMA_KEYWORDS = (
    "items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "additionalItems",
    "unevaluatedItems", "unevaluatedProperties", "anyOf", "oneOf", "allOf", "prefixItems",
)  # fmt: skip
SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def json_types(schema):
    """A copy of a schema with Python's type names (`"type": "dict"`, `["int", "null"]`) as JSON Schema's
    (`"object"`, `["integer", "null"]`), in schema positions only: `any` goes."""
    if isinstance(schema, list):
        return [json_types(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    if isinstance(schema.get("type"), (str, list)):
        kind = _json_type(schema["type"])
        if kind is None:
            out.pop("type")
        else:
            out["type"] = kind
    for key in SCHEMA_KEYWORDS:
        if key in out:
            out[key] = json_types(out[key])
    for key in SCHEMA_MAPS:
        if isinstance(out.get(key), dict):
            out[key] = {name: json_types(v) for name, v in out[key].items()}
    return out


def _json_type(kind):
    """A `type` (a name or a list of names) with Python's names as JSON Schema's (`["int", "null"]` ->
    `["integer", "null"]`); None when it admits any type."""
    if isinstance(kind, list):
        kinds = [_json_type(k) for k in kind]
        return None if any(k is None for k in kinds) else kinds
    return PYTHON_TYPES.get(kind, kind) if isinstance(kind, str) else kind


def tool_entry(item, n: int, warnings: list[str]) -> dict:
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
    where = f"{where} ({name})"
    schema = json_types(input_schema(item, where))
    entry = {
        "name": name,
        "description": item.get("description") or "",
        "parameters": referenced_parameters(schema, where, warnings),
        "func_type": "regular",
        "depends_on": [],
        "input_schema": nesting_capped(schema, where, warnings),
    }
    output = next((item[k] for k in OUTPUT_KEYS if isinstance(item.get(k), dict)), None)
    if output is not None:
        check_schema(output, where, "response")
        entry["output_schema"] = capped_schema(json_types(output), f"{where}: response", warnings)
    if item.get("strict") is not None:  # structured outputs: the arguments follow the schema exactly
        entry["strict"] = item["strict"]
    return entry


def tool_items(data) -> list:
    items = tool_list(data)
    if items is None:
        raise CatalogError(
            'an OpenAI tool list must be a JSON list of tools (or {"tools": [...]}, {"functions": [...]}, JSON lines)'
        )
    return items


def entries(data, warnings: list[str] | None = None) -> list[dict]:
    warnings = [] if warnings is None else warnings
    out = []
    for n, item in enumerate(tool_items(data)):
        if built_in(item):
            warnings.append(f"tool #{n}: a built-in {item['type'][:60]!r} tool, not a function: left out")
            continue
        out.append(tool_entry(item, n, warnings))
    if not out:
        raise CatalogError("the tool list has no functions")
    return out


def load(path: Path, catalog: str | None = None) -> CatalogSource:
    path = Path(path)
    warnings: list[str] = []
    document = read_document(path)  # its errors name the file
    try:
        tools = entries(document, warnings)
    except CatalogError as exc:  # "tool #3: a function needs a name": in which file
        raise reworded(exc, lambda message: f"{path}: {message}") from exc
    return CatalogSource(catalog or path.stem, tools, [], [str(path)], warnings)
