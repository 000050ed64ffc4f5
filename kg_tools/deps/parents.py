"""The parent's getter holds the child (seventeenth session, lead 1 of the spent12c study): a consumer on
`/…/{parentId}/<children>/{childId}` takes a child of one parent, often with no list or get of the children of its
own; `GET /…/{parentId}`, whose output holds `<children>[].id`, hands the child's id out. Path templates only: the
producer's path is the consumer's up to and including the parent's parameter, and the output names the children as
the path's segment does (nested readers without that path prefix are the largest wrong source: not read here).
Not when the children have a listing of their own (`GET /…/{parentId}/<children>`: their provider), nor collections
of their own (a path below `/<children>/{childId}`: a resource of its own, read elsewhere), nor for a create given
the new child's id."""

from __future__ import annotations

from typing import Any

from kg_tools.deps.offline import ProposedEdge
from kg_tools.deps.resources import singular, words
from kg_tools.tool_spec import DependencyType

CONFIDENCE = 0.8
HOLDER_DEPTH = 2  # envelopes (`data`, `application`) read around the children's field
_ID_NAMES = {"id", "key", "uuid"}


def parent_getter_proposals(
    tools: dict, paths: dict, sources: set[str] | None, linked: set[tuple[str, str | None]]
) -> list[ProposedEdge]:
    """One fixed edge per consumer child parameter whose parent's GET holds the children (see the module), unless
    an OpenAPI link (`linked`: consumer, parameter) serves it."""
    out = []
    inner = _inner_paths(paths)
    for consumer in tools.values():
        http = consumer.http or {}
        if sources is not None and consumer.name not in sources or not http.get("path") or consumer.kind == "create":
            continue
        for child, producer in _parent_getters(consumer, str(http["path"]), tools, paths, inner):
            if (consumer.name, child) in linked:
                continue
            why = f"`{child}` ← {producer.name} (GET of the parent, its output holds the children)"
            kind = DependencyType.PARAMETER_DIRECTLY_DEPENDS_ON.value
            out.append(ProposedEdge(consumer.name, producer.name, kind, CONFIDENCE, "path-template", why, child))
    return out


def _parent_getters(consumer, path: str, tools: dict, paths: dict, inner: set[str]) -> list[tuple[str, Any]]:
    """(child parameter, the parent's GET) for each `{parent}/<children>/{child}` of the consumer's path."""
    parts = path.rstrip("/").split("/")
    found = []
    for i in range(3, len(parts)):
        child, segment, parent = parts[i], parts[i - 1], parts[i - 2]
        if not (_is_param(child) and _is_param(parent)) or _is_param(segment) or not words(segment):
            continue
        prefix = "/".join("{}" if _is_param(s) else s for s in parts[: i - 1])
        if any(n != consumer.name for n in paths.get(("GET", f"{prefix}/{segment}"), [])):
            continue  # the children have a listing of their own: it is their provider
        if f"{prefix}/{segment}/{{}}" in inner:
            continue  # a child with collections of its own is a resource of its own, not a part of its parent
        for name in paths.get(("GET", prefix), []):
            producer = tools[name]
            if name != consumer.name and _holds_children(producer.output_schema, segment):
                found.append((child.strip("{}"), producer))
                break
    return found


def _inner_paths(paths: dict) -> set[str]:
    """The paths some operation's path goes on below (`/a/{}` and `/a` of `/a/{}/b`), read once per catalog."""
    out: set[str] = set()
    for _, path in paths:
        parts = path.split("/")
        out.update("/".join(parts[:k]) for k in range(1, len(parts)))
    return out


def _is_param(segment: str) -> bool:
    return segment.startswith("{") and segment.endswith("}")


def _holds_children(schema: object, segment: str, depth: int = 0) -> bool:
    """An output whose field named as the segment (`roles` for `/roles/`) is an array of objects, or an object,
    with an id; read through envelopes up to HOLDER_DEPTH."""
    if not isinstance(schema, dict) or depth > HOLDER_DEPTH:
        return False
    target = [singular(w) for w in words(segment)]
    for name, prop in _properties(schema).items():
        if [singular(w) for w in words(name)] == target and _has_id(prop):
            return True
        if isinstance(prop, dict) and _holds_children(prop, segment, depth + 1):
            return True
    return False


def _has_id(prop: object) -> bool:
    if not isinstance(prop, dict):
        return False
    item = prop.get("items") if prop.get("type") == "array" or "items" in prop else prop
    return isinstance(item, dict) and any(n.lower() in _ID_NAMES for n in _properties(item))


def _properties(schema: dict) -> dict:
    """A schema's properties, with those of its `allOf` parts."""
    props = dict(schema["properties"]) if isinstance(schema.get("properties"), dict) else {}
    for part in schema.get("allOf") or []:
        if isinstance(part, dict) and isinstance(part.get("properties"), dict):
            props.update(part["properties"])
    return props
