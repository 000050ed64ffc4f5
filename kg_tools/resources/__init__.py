"""Files the package reads at run time that the repository keeps at its top (cypher/, schema/, maven/).
The wheel installs them as the packages kg_tools.resources.<dir>; an editable install maps those names to
the repository's directories, so both are found through the import system, not through the checkout."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from kg_tools import PROJECT_ROOT


def resource_dir(name: str) -> Path:
    """The directory of kg_tools.resources.<name> (cypher, schema or maven)."""
    try:
        spec = importlib.util.find_spec(f"kg_tools.resources.{name}")
    except ModuleNotFoundError:
        spec = None
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return PROJECT_ROOT / name  # a checkout on PYTHONPATH that was never installed
