"""Small made-up tools and HTTP operations for the candidate-generation tests of kg_tools/deps/producers.py."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups


def op(name: str, method: str, path: str, params: list[dict], **spec) -> ToolInfo:
    """An operation `method path` taking `params` (extra keys: output_schema, ...)."""
    raw = {"name": name, "description": f"{name}.", "parameters": params, "http": {"method": method, "path": path}}
    return ToolInfo.from_raw({**raw, **spec})


def path_op(name: str, method: str, path: str, params=(), output=None) -> dict:
    """A raw operation `method path` whose `params` are required string path parameters (optional output schema)."""
    return {
        "name": name,
        "description": f"{method} {path}",
        "parameters": [{"name": p, "type": "string", "required": True, "in": "path"} for p in params],
        "http": {"method": method, "path": path},
        **({"output_schema": output} if output else {}),
    }


# A page of `{items: [{id}]}`: what a list operation of these tests answers.
PAGE_OF_IDS = {
    "type": "object",
    "properties": {"items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}},
}


def path_tools(*ops: dict) -> list[ToolInfo]:
    """The raw operations of `path_op` read as tools."""
    return [ToolInfo.from_raw(o) for o in ops]


def wanted(tools: list[ToolInfo]) -> dict[tuple[str, str], tuple[list[str], str, set[str]]]:
    """(consumer, parameter) -> (the wanted resources, the field, the names of its candidate producers)."""
    _, groups = candidate_groups(tools)
    return {
        (g[0].consumer.name, g[0].want.parameter): (g[0].want.resources, g[0].want.field, {c.producer.name for c in g})
        for g in groups
        if g
    }


def query_integer(name: str, required: bool = False) -> dict:
    """An integer query parameter (ASP.NET specs mark no query parameter required)."""
    return {"name": name, "type": "integer", "description": "", "required": required, "in": "query"}


def listing(key: str, title: str, id_type: str = "integer") -> dict:
    """An output schema listing `key`: items titled `title`, each with an `id` (`{widgets: [{id}]}`)."""
    item = {"type": "object", "title": title, "properties": {"id": {"type": id_type}}}
    return {"type": "object", "properties": {key: {"type": "array", "items": item}}}


def described_tool(name: str, description: str, params: list[dict]) -> ToolInfo:
    """A tool with no HTTP operation: a name, a description and `params`."""
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params})


def required_string(name: str, description: str = "") -> dict:
    """A required string parameter."""
    return {"name": name, "type": "string", "description": description, "required": True}


def candidate_triples(tools: list[ToolInfo]) -> set[tuple[str, str, str]]:
    """Every (consumer, parameter, producer) candidate of `tools`."""
    _, groups = candidate_groups(tools)
    return {(c.consumer.name, c.want.parameter, c.producer.name) for g in groups for c in g}
