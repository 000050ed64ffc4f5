"""Every query lives in cypher/<name>.cypher (kg_tools.resources.cypher when installed); loaded by name (cached)."""

from __future__ import annotations

from functools import cache

from kg_tools.resources import resource_dir

CYPHER_DIR = resource_dir("cypher")
SCHEMA_DIR = resource_dir("schema")


@cache
def query(name: str) -> str:
    path = CYPHER_DIR / f"{name}.cypher"
    if not path.exists():
        raise FileNotFoundError(f"no Cypher query named {name!r} ({path})")
    return _strip_comments(path.read_text())


def statements(path) -> list[str]:
    """Split a schema file into statements (`;` at line end), comments removed."""
    text = _strip_comments(path.read_text())
    return [s.strip() for s in text.split(";\n") if s.strip().rstrip(";")]


def _strip_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//")).strip()
