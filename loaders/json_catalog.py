"""Any catalog in the ToolLinkOS schema: a JSON list of tools, {"tools": [...]}, or JSON lines. Each tool's
`input_schema` and `output_schema` get the importers' check (loaders/json_schema.py `check_tool_schemas`)."""

from pathlib import Path

from kg_tools.errors import CatalogError
from kg_tools.loaders.common import CatalogSource, read_json, read_jsonl
from kg_tools.loaders.json_schema import check_tool_schemas


def load(path: Path, catalog: str | None = None) -> CatalogSource:
    path = Path(path)
    data = read_jsonl(path) if path.suffix == ".jsonl" else read_json(path)
    if isinstance(data, dict) and isinstance(data.get("tools"), list):
        data = data["tools"]
    if not isinstance(data, list):
        raise CatalogError(f"{path}: expected a JSON list of tools or an object with a 'tools' list")
    check_tool_schemas(data, str(path))
    return CatalogSource(catalog or path.stem, data, [], [str(path)])
