"""kg-tools: a Neo4j knowledge graph of tools that helps LLM agents find the tools they need."""
from pathlib import Path

__version__ = "0.1.0"

# The repository root holds cypher/, schema/ and maven/ next to this package.
PROJECT_ROOT = Path(__file__).resolve().parent.parent
