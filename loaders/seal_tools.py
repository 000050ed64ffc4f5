"""Seal-Tools (fairyshine/Seal-Tools): tool.jsonl + test_out_domain.jsonl.

A tool line {api_name, api_description, field, parameters{name: {type, description}}, required[],
responses{...}} becomes a catalog entry {name, description, parameters[{name, type, description,
required}], func_type "regular", depends_on [], field, responses}. Seal-Tools has no dependency
edges. Queries become instances {id, query, gold[api names, first-call order, unique], calling}.
"""

from __future__ import annotations

from pathlib import Path

from kg_tools.errors import CatalogError
from kg_tools.loaders.common import CatalogSource, read_jsonl, require_dir

CATALOG = "seal-tools"
TOOLS_FILE = "tool.jsonl"
QUERIES_FILE = "test_out_domain.jsonl"
_KEPT = ("field", "responses", "example")


def tool_entry(raw: dict, line: int) -> dict:
    """One Seal-Tools tool object -> one catalog entry (raises CatalogError with the line number)."""
    if not isinstance(raw, dict) or not raw.get("api_name"):
        raise CatalogError(f"{TOOLS_FILE}:{line}: a tool needs an api_name")
    params = raw.get("parameters") or {}
    required = raw.get("required") or []
    if not isinstance(params, dict) or not isinstance(required, list):
        raise CatalogError(f"{TOOLS_FILE}:{line} ({raw['api_name']}): parameters must be an object and required a list")
    unknown = [r for r in required if r not in params]
    if unknown:
        raise CatalogError(f"{TOOLS_FILE}:{line} ({raw['api_name']}): required names unknown parameters {unknown}")
    entry = {
        "name": raw["api_name"],
        "description": raw.get("api_description") or "",
        "parameters": [
            {
                "name": name,
                "type": (p or {}).get("type"),
                "description": (p or {}).get("description") or "",
                "required": name in required,
            }
            for name, p in params.items()
        ],
        "func_type": "regular",
        "depends_on": [],
    }
    entry.update({k: raw[k] for k in _KEPT if k in raw})
    return entry


def query_instance(raw: dict) -> dict:
    calling = raw.get("calling") or []
    gold = list(dict.fromkeys(c["api"] for c in calling if isinstance(c, dict) and c.get("api")))
    return {"id": raw.get("id"), "query": raw.get("query", ""), "gold": gold, "calling": calling}


def load(directory: Path) -> CatalogSource:
    directory = require_dir(directory, "Seal-Tools")
    tools = [tool_entry(raw, n) for n, raw in enumerate(read_jsonl(directory / TOOLS_FILE), 1)]
    queries_path = directory / QUERIES_FILE
    instances = [query_instance(q) for q in read_jsonl(queries_path)] if queries_path.exists() else []
    return CatalogSource(CATALOG, tools, instances, [str(directory / TOOLS_FILE)])
