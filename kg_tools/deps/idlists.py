"""Outputs that are lists of nothing but identifiers (eighteenth session, "lists of ids, names and keys").

A reader whose output is an array of strings, or of objects whose every field is an identifier (`{id, name}`,
`{key}`), directly or inside an envelope (`{experiments: [...]}`, `{result: {shard_keys: [...]}}`, beside scalars
and paging), lists exactly the identifiers of one resource: the one its array (`shard_keys`: shard keys) or, at the
top, its collection (`GET /v1/feature-keys`, `GET /v1/experiment-names`) names. A plural identifier word at the end
of that name (`keys`, `names`, `ids`) is the field listed, and the words before it the resource; the name is read so
only when the output has this shape (`GET /api-keys` returns whole API keys: the keys are the resource there)."""

from __future__ import annotations

from dataclasses import dataclass

from kg_tools.deps.resources import ID_FIELDS, resource_key, singular, words

LISTED_FIELDS = {"ids": "id", "names": "name", "keys": "key", "uuids": "id", "slugs": "slug"}  # plural: a list of them
ENVELOPE_LEVELS = 2  # `{result: {shard_keys: [...]}}`
ITEM_FIELDS = 3  # an item of more fields is a summary of the thing, not its identifiers


@dataclass(frozen=True)
class IdList:
    path: str  # where the items are (`[]`, `experiments[]`, `result.shard_keys[]`)
    holder: str  # the property holding the array ('' at the top)
    fields: tuple[str, ...]  # the items' fields (none: strings)


def identifier_list(schema: object) -> IdList | None:
    """Where an output schema lists nothing but identifiers, else None."""
    return _find(schema, "", "", 0)


def _find(node: object, path: str, holder: str, depth: int) -> IdList | None:
    if not isinstance(node, dict):
        return None
    items = node.get("items")
    if isinstance(items, dict):
        fields = _identifier_fields(items)
        return IdList(f"{path}[]", holder, fields) if fields is not None else None
    props = node.get("properties")
    if not isinstance(props, dict) or depth >= ENVELOPE_LEVELS or any(_identifier(k) for k in props):
        return None  # an object with an identifier of its own is an instance (a project and its teams)
    arrays = [k for k, v in props.items() if isinstance(v, dict) and (v.get("type") == "array" or "items" in v)]
    inner = arrays or [k for k, v in props.items() if isinstance(v, dict) and isinstance(v.get("properties"), dict)]
    if len(inner) != 1 or not isinstance(inner[0], str):
        return None  # two lists (JSON:API's `data` and `included`), or no single member to look into
    key = inner[0]
    return _find(props[key], f"{path}.{key}" if path else key, key, depth + 1)


def _identifier_fields(items: dict) -> tuple[str, ...] | None:
    """() for strings (not an enum: a choice), the fields of objects that hold only identifiers, else None."""
    if items.get("type") == "string":
        return None if items.get("enum") else ()
    props = items.get("properties")
    if not isinstance(props, dict) or not 0 < len(props) <= ITEM_FIELDS:
        return None
    if not all(_identifier(k) for k in props):
        return None
    if not any(isinstance(v, dict) and v.get("type") not in ("object", "array") for v in props.values()):
        return None
    return tuple(props)


def _identifier(key: object) -> bool:
    """A field named by one identifier word (`id`, `name`, `key`, `Id`, `_id`, `@id`)."""
    return identifier_field(key) is not None


def identifier_field(key: object) -> str | None:
    """The identifier a field named by one identifier word holds (`_id`, `@id`, `Id` -> id), else None."""
    ws = words(key) if isinstance(key, str) else []
    return ID_FIELDS[ws[0]] if len(ws) == 1 and ws[0] in ID_FIELDS else None


def listed_identifier(name_words: list[str]) -> tuple[str, str] | None:
    """(resource, field) of a name that ends with a plural identifier word after the resource's (`feature keys`,
    `shard_keys`, `experiment-names`), else None."""
    if len(name_words) < 2 or name_words[-1] not in LISTED_FIELDS:
        return None
    resource = resource_key([singular(w) for w in name_words[:-1]])
    return (resource, LISTED_FIELDS[name_words[-1]]) if resource else None
