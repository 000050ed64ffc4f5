"""JSON Schema -> catalog parameters, shared by the OpenAI-tools, OpenAPI and MCP importers.

An object schema's top-level properties become parameters {name, type, description, required};
enum and default are kept; nested objects and arrays stay one parameter of type object/array.
"""

from __future__ import annotations

import json
import re
from typing import Any

from kg_tools.errors import CatalogError
from kg_tools.loaders.bounded import RefResolver
from kg_tools.tool_spec import MAX_NESTING, MAX_OUTPUT_SCHEMA_CHARS, clip, nesting_depth

# OpenAI function names: ^[a-zA-Z0-9_-]{1,64}$; we use the same alphabet for every importer.
_INVALID = re.compile(r"[^A-Za-z0-9_-]+")
MAX_TOOL_NAME = 64


def tool_name(raw: str) -> str:
    """A valid tool name from an operationId, 'get /pets/{id}' or an MCP name: runs of other
    characters become one underscore, cut to 64 characters. Empty results are an error."""
    name = _INVALID.sub("_", str(raw)).strip("_")[:MAX_TOOL_NAME].strip("_")
    if not name:
        raise CatalogError(f"cannot make a tool name from {raw!r}")
    return name


def schema_type(schema: dict) -> str | None:
    """The JSON type of a property ('string', 'integer', ...); the first non-null of a type list
    or of anyOf/oneOf alternatives; None when the schema does not say."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind is None:
        for key in ("anyOf", "oneOf", "allOf"):
            for alt in schema.get(key) or []:
                if isinstance(alt, dict) and (alt_kind := schema_type(alt)):
                    return alt_kind
        if "properties" in schema:
            return "object"
    return kind if isinstance(kind, str) else None


def describe(schema: dict) -> str:
    return " ".join(str(schema.get("description") or schema.get("title") or "").split())


def parameter(name: str, schema: Any, required: bool, description: str = "", **extra) -> dict:
    schema = schema if isinstance(schema, dict) else {}
    param = {
        "name": name,
        "type": schema_type(schema),
        "description": description or describe(schema),
        "required": bool(required),
    }
    if isinstance(schema.get("enum"), list):
        param["enum"] = schema["enum"]
    if "default" in schema:
        param["default"] = schema["default"]
    param.update(extra)
    return param


def object_parameters(schema: Any, where: str, **extra) -> list[dict]:
    """The properties of an object schema as parameters (required from the schema's `required`)."""
    if schema in (None, {}):
        return []
    if not isinstance(schema, dict):
        raise CatalogError(f"{where}: the parameter schema must be a JSON object, got {type(schema).__name__}")
    properties = schema.get("properties") or {}
    if not isinstance(properties, dict):
        raise CatalogError(f"{where}: 'properties' must be an object")
    listed = schema.get("required")
    required = {r for r in listed if isinstance(r, str)} if isinstance(listed, list) else set()  # draft 3: a bool
    return [parameter(name, prop, name in required, **extra) for name, prop in properties.items()]


def referenced_parameters(schema: Any, where: str, warnings: list[str] | None = None) -> list[dict]:
    """object_parameters with the schema's local `$ref`s followed (`{"$ref": "#/$defs/FlightInfo"}`, as Pydantic
    writes a tool's input), so a parameter has the referenced schema's type and description: the schema's own
    `$ref` and each property's schema, never the `properties` object (a property may be named `$ref`). A `$ref`
    that does not resolve (or expands too far) leaves the schema as it is, with a warning."""
    if isinstance(schema, dict) and '"$ref"' in json.dumps(schema):
        resolver = RefResolver(schema, where)
        try:
            top = resolver.deref(schema)
            properties = top.get("properties") if isinstance(top, dict) else None
            if isinstance(properties, dict):
                top = {**top, "properties": {name: resolver.resolve(p) for name, p in properties.items()}}
            schema = top
        except CatalogError as exc:
            if warnings is not None:
                warnings.append(f"{exc}: its parameters read without following $refs"[:500])
    return object_parameters(schema, where)


def _pruned(node: Any, depth: int, width: int) -> Any:
    """A copy of a schema down to `depth` nested containers, at most `width` entries per object/list;
    below that only an object's scalars (type, title, description ...) are kept, and a keyword whose list
    the cut empties goes (`_emptied`): what a cut keeps is a valid schema."""
    if isinstance(node, dict):
        if depth <= 0:
            return {k: v for k, v in list(node.items())[:width] if not isinstance(v, (dict, list))}
        pruned = ((k, v, _pruned(v, depth - 1, width)) for k, v in list(node.items())[:width])
        return {k: cut for k, v, cut in pruned if not _emptied(v, cut)}
    if isinstance(node, list):
        return [_pruned(v, depth - 1, width) for v in node[:width]] if depth > 0 else []
    return node


def _emptied(value: Any, cut: Any) -> bool:
    """Whether a cut emptied a keyword's list: such a keyword goes rather than stays as `[]`. `type: []` and
    `allOf: []` are no schema, `enum: []` refuses every value; without the keyword the cut schema refuses
    no value the full one accepts (the size it frees is not spent: the cut keeps the same properties)."""
    return cut == [] and value != []


DOCUMENTATION = {
    "description",
    "example",
    "examples",
    "externalDocs",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "default",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "nullable",
    "xml",
}


def _lean(node: Any, depth: int) -> Any:
    """A schema without documentation, examples, validation details and `x-` extensions (depth-bounded). Below
    the limit a schema is `{}` (any value) and a keyword whose list the cut would
    empty goes (`_emptied`), and `enum`/`const` are values, kept whole: what is kept is a valid schema."""
    if depth <= 0:
        return {} if isinstance(node, dict) else [] if isinstance(node, list) else node
    if isinstance(node, list):
        return [_lean(v, depth - 1) for v in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if isinstance(k, str) and (k in DOCUMENTATION or k.startswith("x-")):
            continue
        if k in ("properties", "patternProperties", "$defs", "definitions") and isinstance(v, dict):
            out[k] = {name: _lean(sub, depth - 2) for name, sub in v.items()}  # names, not keywords
        elif k in ("enum", "const"):
            out[k] = v
        elif not _emptied(v, lean := _lean(v, depth - 1)):
            out[k] = lean
    return out


# the levels a schema may nest: a tool holds its schemas one level down (`{"input_schema": {...}}`), and a tool
# nests at most MAX_NESTING levels
SCHEMA_NESTING = MAX_NESTING - 1


def capped_schema(schema: Any, where: str, warnings: list[str] | None = None) -> dict:
    """A schema of at most MAX_OUTPUT_SCHEMA_CHARS characters of JSON and SCHEMA_NESTING levels: a larger or
    deeper one is cut (fewer levels, then fewer properties) and a warning says so. Not an object: a CatalogError."""
    if not isinstance(schema, dict):
        raise CatalogError(f"{where}: must be a JSON object (a JSON Schema), got {type(schema).__name__}")
    if (
        nesting_depth(schema) <= SCHEMA_NESTING
        and len(json.dumps(schema, ensure_ascii=False)) <= MAX_OUTPUT_SCHEMA_CHARS
    ):
        return schema
    deep = f" and {SCHEMA_NESTING} levels" if nesting_depth(schema) > SCHEMA_NESTING else ""  # why it is cut
    lean = _lean(schema, MAX_NESTING)  # the structure first: documentation and examples go
    size = len(json.dumps(lean, ensure_ascii=False))
    if nesting_depth(lean) <= SCHEMA_NESTING and size <= MAX_OUTPUT_SCHEMA_CHARS:
        if warnings is not None:
            warnings.append(
                f"{where}: descriptions and examples left out to fit {MAX_OUTPUT_SCHEMA_CHARS} characters{deep}"
            )
        return lean
    for width in (200, 50, 10):
        for depth in range(min(nesting_depth(lean), 24), 0, -1):
            cut = _pruned(lean, depth, width)
            size = len(json.dumps(cut, ensure_ascii=False))
            if size <= MAX_OUTPUT_SCHEMA_CHARS:
                if warnings is not None:
                    warnings.append(
                        f"{where}: schema cut to {depth} levels and {width} entries per object "
                        f"({size} of at most {MAX_OUTPUT_SCHEMA_CHARS} characters of JSON{deep})"
                    )
                return cut
    if warnings is not None:
        warnings.append(f"{where}: schema too large to keep (over {MAX_OUTPUT_SCHEMA_CHARS} characters even cut)")
    return {k: v for k, v in list(schema.items())[:10] if isinstance(v, str)}


def nesting_capped(schema: Any, where: str, warnings: list[str] | None = None) -> Any:
    """A tool list's input schema (MCP, OpenAI) as it is, unless it nests deeper than a tool may hold: then cut as
    the OpenAPI loader cuts its schemas (`capped_schema`), with a warning naming the tool. Its size is not capped:
    a tool list's schema is kept whole, as before (the whole tool stays within MAX_SPEC_BYTES)."""
    if isinstance(schema, dict) and nesting_depth(schema) > SCHEMA_NESTING:
        return capped_schema(schema, f"{where}: input schema", warnings)
    return schema


def _mapped(node: dict, walk, depth: int) -> dict[str, Any]:
    """`node` with `walk(child, depth)` applied to each child schema (each property of `properties` by name)."""
    return {
        k: {n: walk(sub, depth - 2) for n, sub in v.items()}
        if k in ("properties", "patternProperties") and isinstance(v, dict)
        else walk(v, depth - 1)
        for k, v in node.items()
    }


def merged_all_of(node: Any, depth: int = MAX_NESTING) -> Any:
    """A copy of a schema with each `allOf` of objects folded into one object: the members' properties and
    `required` joined (the node's own win), `type: object`. Other `allOf`s stay; `depth` bounds the walk."""
    return _rebuilt(node, depth, merged_all_of, _all_of_folded)


def _rebuilt(node: Any, depth: int, walk, finish) -> Any:
    """A schema walk's step: lists and children through `walk`, then `finish` on the rebuilt object."""
    if depth <= 0 or not isinstance(node, (dict, list)):
        return node
    if isinstance(node, list):
        return [walk(v, depth - 1) for v in node]
    return finish(_mapped(node, walk, depth))


def _all_of_folded(out: dict) -> dict[str, Any]:
    members = out.get("allOf")
    if not isinstance(members, list) or not any(isinstance(m, dict) and "properties" in m for m in members):
        return out
    return _folded([m for m in members if isinstance(m, dict)], out)


def _folded(members: list[dict], own: dict) -> dict[str, Any]:
    """One object of `allOf` members and the schema holding them (its own keys win)."""
    props: dict = {}
    required: list = []
    for part in [*members, own]:
        props.update(part["properties"] if isinstance(part.get("properties"), dict) else {})
        required += [r for r in part.get("required") or [] if r not in required]
    folded: dict[str, Any] = {k: v for m in members for k, v in m.items() if isinstance(v, (str, bool))}
    folded.update({k: v for k, v in own.items() if k != "allOf"})
    return folded | {"type": "object", "properties": props} | ({"required": required} if required else {})


def writable(node: Any, depth: int = MAX_NESTING) -> Any:
    """A copy of a request schema without its `readOnly` properties (what a server sends, never takes: the
    `gid`, `created_at` of a resource schema reused for its create body), their names kept in `x-read-only` (a
    model whose `id` is read-only, posted inside an action's body, is an embedded instance); `depth` bounds
    the walk."""
    return _rebuilt(node, depth, writable, _read_only_dropped)


def read_only(schema: Any) -> bool:
    """Whether a property's schema is `readOnly: true`, on itself or on one of its `allOf` members (`{"allOf": [{"$ref":
    …}, {"readOnly": true}]}`, the OpenAPI 3.0 way to flag a `$ref`'d property): JSON Schema reads an annotation
    true when any schema applying to the value says true (a `$ref`'s siblings reach here merged, loaders/bounded.py)."""
    return _flagged(schema, "readOnly")


def write_only(schema: Any) -> bool:
    """Whether a property's schema is `writeOnly: true`, on itself or on one of its `allOf` members, as `read_only`:
    sent in requests only, never in a response (kg_tools/deps/resources.py offers none of it)."""
    return _flagged(schema, "writeOnly")


def _flagged(schema: Any, keyword: str) -> bool:
    if not isinstance(schema, dict):
        return False
    members = schema.get("allOf")
    if schema.get(keyword) is True:
        return True
    return isinstance(members, list) and any(isinstance(m, dict) and m.get(keyword) is True for m in members)


def _read_only_dropped(out: dict) -> dict[str, Any]:
    props = out.get("properties")
    if isinstance(props, dict):
        gone = {n for n, sub in props.items() if read_only(sub)}
        out["properties"] = {n: sub for n, sub in props.items() if n not in gone}
        if gone:
            out["x-read-only"] = sorted(gone)
        if isinstance(out.get("required"), list):
            out["required"] = [r for r in out["required"] if r not in gone]
    return out


# What each JSON Schema keyword must hold (draft 4 to 2020-12 and OpenAPI 3.x; `items` as a list is the tuple
# form of drafts before 2020-12). A keyword of another shape is refused by `check_schema`; keywords not named
# here (title, description, format, examples, x-...) are documentation and kept as they are.
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_ONE_SCHEMA = {"not", "additionalProperties", "additionalItems", "contains", "propertyNames", "if", "then", "else"}
_ONE_SCHEMA |= {"unevaluatedProperties", "unevaluatedItems"}


def check_schema(schema: Any, where: str, pointer: str) -> None:
    """Refuse a malformed JSON Schema with one CatalogError naming `where` and the JSON pointer of the bad keyword
    (`MCP tool 'get_user': inputSchema/properties/id/anyOf must be a list of schemas, not 5`). A schema is an
    object or a boolean; `required: true` (draft 3) is tolerated. Checked down to MAX_NESTING levels."""
    problem = _schema_problem(schema, pointer, MAX_NESTING)
    if problem:
        raise CatalogError(f"{where}: {problem}"[:500])


# The JSON Schemas a tool of our own JSON format holds (what the importers wrote from inputSchema, parameters,
# request bodies and responses).
TOOL_SCHEMAS = ("input_schema", "output_schema")


def check_tool_schemas(tools: list, where: str) -> None:
    """The importers' check for a catalog in our own JSON format (`load json`, the REST import's `json`): each
    tool's input_schema and output_schema, the first malformed one a CatalogError (`catalog.json: tool #3
    ('get_user'): output_schema/properties/id/anyOf must be a list of schemas, not 5`)."""
    for n, tool in enumerate(tools):
        if not isinstance(tool, dict):
            continue  # validate_catalog names it
        label = f"{where}: tool #{n}" + (f" ({clip(tool['name'])})" if tool.get("name") else "")
        for key in TOOL_SCHEMAS:
            if tool.get(key) is not None:
                check_schema(tool[key], label, key)


def _escaped(name: Any) -> str:
    """A JSON pointer token (RFC 6901): `~` as `~0`, `/` as `~1`."""
    return str(name).replace("~", "~0").replace("/", "~1")


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)[:60]


def _schema_problem(node: Any, pointer: str, depth: int) -> str | None:
    if isinstance(node, bool) or depth <= 0:
        return None
    if not isinstance(node, dict):
        return f"{pointer} must be a schema (an object), not {_shown(node)}"
    for key, value in node.items():
        problem = _keyword_problem(key, value, f"{pointer}/{_escaped(key)}", depth)
        if problem:
            return problem
    return None


def _keyword_problem(key: str, value: Any, at: str, depth: int) -> str | None:
    """What is wrong with one keyword's value (its sub-schemas checked too), or None."""
    if key in _SCHEMA_LISTS or key == "items" and isinstance(value, list):
        if not isinstance(value, list):
            return f"{at} must be a list of schemas, not {_shown(value)}"
        return next((p for n, v in enumerate(value) if (p := _schema_problem(v, f"{at}/{n}", depth - 1))), None)
    if key in _SCHEMA_MAPS:
        if not isinstance(value, dict):
            return f"{at} must be an object of schemas by name, not {_shown(value)}"
        return next((p for n, v in value.items() if (p := _schema_problem(v, f"{at}/{_escaped(n)}", depth - 2))), None)
    if key in _ONE_SCHEMA or key == "items":
        return _schema_problem(value, at, depth - 1)
    return _value_problem(key, value, at)


def _value_problem(key: str, value: Any, at: str) -> str | None:
    if key == "required" and not isinstance(value, bool):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return f"{at} must be a list of property names, not {_shown(value)}"
    if key == "enum" and not isinstance(value, list):
        return f"{at} must be a list of values, not {_shown(value)}"
    if key == "type":
        kinds = value if isinstance(value, list) else [value]
        if not kinds or not all(isinstance(k, str) for k in kinds):  # an unknown name ("file", "int") is tolerated
            return f"{at} must be a JSON type name or a list of them, not {_shown(value)}"
    if key == "$ref" and not isinstance(value, str):
        return f"{at} must be a string (a reference), not {_shown(value)}"
    return None


def well_formed(schema: Any, depth: int = MAX_NESTING) -> Any:
    """A copy of a schema without the keywords `check_schema` refuses (at any level): what inference reads, so
    an odd schema that reached the graph some other way (a JSON catalog, a gateway's upstream) never breaks it."""
    if not isinstance(schema, dict) or depth <= 0:
        return schema if isinstance(schema, (dict, bool)) else {}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if _keyword_problem(key, value, "", 1) is not None or key == "required" and isinstance(value, bool):
            continue  # this keyword's own shape is wrong (its sub-schemas are checked below); draft 3's flag goes
        if key in _SCHEMA_LISTS or key == "items" and isinstance(value, list):
            value = [well_formed(v, depth - 1) for v in value]
        elif key in _SCHEMA_MAPS:
            value = {n: well_formed(v, depth - 2) for n, v in value.items()}
        elif key in _ONE_SCHEMA or key == "items":
            value = well_formed(value, depth - 1)
        out[key] = value
    return out
