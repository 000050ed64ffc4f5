"""Any catalog in the ToolLinkOS schema: a JSON list of tools, {"tools": [...]}, or JSON lines. Each tool's
`input_schema` and `output_schema` get the importers' check (loaders/json_schema.py `check_tool_schemas`).
An MCP `tools/list` result ({"tools": [{name, inputSchema ...}]}, as a server's dump) is read as the MCP importer
reads it; an OpenAPI spec or an OpenAI tool list is refused with the command that reads it (read here, their
tools would lose their parameters or fail on fields of ours they do not have)."""

from pathlib import Path

from kg_tools.errors import CatalogError
from kg_tools.loaders.common import CatalogSource, one_message, read_json, read_jsonl, rpc_error, tool_list
from kg_tools.loaders.document import detect, mcp_entries
from kg_tools.loaders.json_schema import check_tool_schemas

OTHER_FORMATS = {"openapi": "an OpenAPI or Swagger spec", "openai-tools": "an OpenAI tool list"}


def load(path: Path, catalog: str | None = None) -> CatalogSource:
    path = Path(path)
    data = one_message(read_jsonl(path) if path.suffix == ".jsonl" else read_json(path))
    kind = detect(data)
    if kind in OTHER_FORMATS:
        raise CatalogError(f"{path}: {OTHER_FORMATS[kind]}, not a JSON catalog: load it with `kg-tools load {kind}`")
    if kind == "mcp":
        warnings = [f"{path}: an MCP tools/list result, read as the MCP importer reads a server's tools"]
        return CatalogSource(catalog or path.stem, mcp_entries(data, warnings), [], [str(path)], warnings)
    tools = tool_list(data)  # as load_document reads it: a saved JSON-RPC answer listing no tools is an empty list
    if tools is None:
        raise CatalogError(f"{path}: expected a JSON list of tools or an object with a 'tools' list{rpc_error(data)}")
    check_tool_schemas(tools, str(path))
    return CatalogSource(catalog or path.stem, tools, [], [str(path)])
