"""kg-tools: a Neo4j knowledge graph of tools that helps LLM agents find the tools they need."""

import os
from pathlib import Path

__version__ = "0.1.0"

# The repository root holds cypher/, schema/ and maven/ next to this package.
PROJECT_ROOT = Path(__file__).resolve().parent.parent

# Local state (the Neo4j home, models): the checkout when running from one, else the user's data directory.
IN_CHECKOUT = (PROJECT_ROOT / "pyproject.toml").is_file() and (PROJECT_ROOT / "cypher").is_dir()
DATA_HOME = (
    PROJECT_ROOT
    if IN_CHECKOUT
    else Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "kg-tools"
)
