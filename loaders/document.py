"""One catalog document of any supported format (the REST import): our JSON catalog, an OpenAI tool list,
an OpenAPI 3.x or Swagger 2.0 spec (JSON or YAML) or an MCP `tools/list` result ({"tools": [{name, inputSchema ...}]}).
`format="auto"` tells them apart by their shape."""

from __future__ import annotations

from typing import Literal, get_args

from kg_tools.errors import CatalogError
from kg_tools.loaders import openai_tools, openapi
from kg_tools.loaders.bounded import parse_document
from kg_tools.loaders.common import CatalogSource, one_message, rpc_error, rpc_result, tool_list
from kg_tools.loaders.json_schema import (
    capped_schema,
    check_schema,
    check_tool_schemas,
    nesting_capped,
    referenced_parameters,
)

Format = Literal["auto", "json", "openai-tools", "openapi", "mcp"]
FORMATS: tuple[str, ...] = get_args(Format)


def detect(document) -> str:
    if isinstance(document, dict) and any(k in document for k in ("openapi", "swagger", "swaggerVersion")):
        return "openapi"
    items = tool_list(document)
    if items and all(isinstance(i, dict) for i in items):
        if all("inputSchema" in i for i in items):
            return "mcp"
        # built-in tools are an OpenAI (or Anthropic) list's; a list of only them: openai_tools says it has no functions
        if all(openai_tools.built_in(i) or _openai_function(i) for i in items):
            return "openai-tools"
    return "json"


def _openai_function(item: dict) -> bool:
    """An OpenAI function (wrapped, flat, or bare with a `parameters` schema) or an Anthropic tool (an
    `input_schema` and none of our own JSON catalog's fields)."""
    if item.get("type") == "function" and (isinstance(item.get("function"), dict) or isinstance(item.get("name"), str)):
        return True
    if isinstance(item.get("parameters"), dict):
        return True
    return isinstance(item.get("input_schema"), dict) and not any(k in item for k in OWN_FIELDS)


# fields of our own JSON catalog (kg_tools/tool_spec.py) that no OpenAI or Anthropic tool has
OWN_FIELDS = ("parameters", "depends_on", "func_type", "output_schema", "http")


def mcp_entries(document, warnings: list[str] | None = None) -> list[dict]:
    """An MCP tools/list result as catalog entries (the same translation as the live MCP importer):
    the input schema's properties as parameters; `title`, `outputSchema` (as `output_schema`, size-capped
    with a warning) and `annotations` kept when the server sends them (validated by kg_tools.tool_spec)."""
    items = tool_list(document)
    if items is None:
        raise CatalogError('an MCP tool list must be {"tools": [...]} or a list of tools' + rpc_error(document))
    cursor = rpc_result(document).get("nextCursor") if isinstance(document, dict) else None
    if cursor and warnings is not None:  # one page of a paginated tools/list
        warnings.append(
            f"the MCP tool list has a nextCursor ({str(cursor)[:40]!r}): the server's other pages are not in it"
        )
    out = []
    for n, tool in enumerate(items):
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            raise CatalogError(f"MCP tool #{n}: needs a name")
        where = f"MCP tool {tool['name']!r}"
        schema = tool.get("inputSchema") or {}
        check_schema(schema, where, "inputSchema")
        if isinstance(tool.get("outputSchema"), dict):  # not an object: capped_schema says so
            check_schema(tool["outputSchema"], where, "outputSchema")
        entry = {
            "name": tool["name"],
            "description": tool.get("description") or tool.get("title") or "",
            "parameters": referenced_parameters(schema, where, warnings),
            "func_type": "regular",
            "depends_on": [],
            "input_schema": nesting_capped(schema, where, warnings),
        }
        if tool.get("title") is not None:
            entry["title"] = tool["title"]
        if tool.get("outputSchema") is not None:
            entry["output_schema"] = capped_schema(tool["outputSchema"], f"{where}: outputSchema", warnings)
        if tool.get("annotations") is not None:
            entry["annotations"] = tool["annotations"]
        out.append(entry)
    return out


def load_document(text: str, catalog: str, format: str = "auto", where: str = "request body") -> CatalogSource:
    """The text (JSON, JSON lines or YAML) as a catalog in `format`, or the one `auto` detects."""
    if format not in FORMATS:  # before parsing: a wrong format is the caller's mistake, whatever the text
        raise CatalogError(f"unknown format {format!r}; one of {', '.join(FORMATS)}")
    document = one_message(parse_document(text, where))
    warnings: list[str] = []
    kind = detect(document) if format == "auto" else format
    if kind == "openapi":
        tools = openapi.entries(document, where, warnings)
    elif kind == "openai-tools":
        tools = openai_tools.entries(document, warnings)
    elif kind == "mcp":
        tools = mcp_entries(document, warnings)
    else:
        tools = tool_list(document)
        if tools is None:
            raise CatalogError(
                f"{where}: expected a list of tools, an OpenAI tool list, an OpenAPI spec or an MCP tool list"
                + rpc_error(document)
            )
        check_tool_schemas(tools, where)
    return CatalogSource(catalog, tools, [], [f"{where} ({kind})"], warnings)
