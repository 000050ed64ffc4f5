"""ToolLinkOS (Graph RAG-Tool Fusion benchmark): core_tools.json, regular_tools.json, instances.json."""

from pathlib import Path

from kg_tools.loaders.common import CatalogSource, require_dir, split_files


def load(directory: Path) -> CatalogSource:
    return split_files(require_dir(directory, "ToolLinkOS"), "toollinkos")
