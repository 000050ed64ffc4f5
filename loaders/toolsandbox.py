"""ToolSandbox in the ToolLinkOS schema: tools.json, or the core/regular split files."""

from pathlib import Path

from kg_tools.errors import CatalogError
from kg_tools.loaders.common import CatalogSource, read_json, require_dir, split_files


def load(directory: Path) -> CatalogSource:
    directory = require_dir(directory, "ToolSandbox")
    if (directory / "tools.json").exists():
        tools = read_json(directory / "tools.json")
        if not isinstance(tools, list):
            raise CatalogError(f"{directory / 'tools.json'}: expected a JSON list of tools")
        instances_path = directory / "instances.json"
        instances = read_json(instances_path) if instances_path.exists() else []
        return CatalogSource("toolsandbox", tools, instances, [str(directory / "tools.json")])
    return split_files(directory, "toolsandbox")
