"""Swagger 2.0 -> OpenAPI 3.0, in-process (what `npx swagger2openapi -p` did for the corpus), as a pure function.

What the OpenAPI loader reads is carried over: `definitions` / `parameters` / `responses` / `securityDefinitions`
become `components` (every local `$ref` rewritten to match), `host` / `basePath` / `schemes` become `servers`, a
`body` parameter the `requestBody` (one content entry per `consumes` media type, JSON when none is given), `formData`
parameters one object schema under a form media type (multipart when it is consumed), a parameter's
`type` / `format` / `items` / `enum` ... its `schema` (`collectionFormat` as `style` / `explode`), a response's
`schema` one content entry per `produces` media type (`*/*` when none is given), `x-nullable` `nullable`,
`type: file` a binary string; what `-p` mends (type lists, the type `null`, tuple `items`, arrays without `items`,
untyped parameters) mended alike. The input is not changed; a remote `$ref` is kept as it is (the loader refuses it).
The loader's messages about the converted document are put back in its own terms (`own_terms`: `#/definitions/…`).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from kg_tools.errors import CatalogError

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
REFS = {  # a local $ref's Swagger 2.0 prefix and its OpenAPI 3.0 place
    "#/definitions/": "#/components/schemas/",
    "#/parameters/": "#/components/parameters/",
    "#/responses/": "#/components/responses/",
}
SCHEMA_KEYS = (  # a non-body parameter's (and a response header's) keywords that go into its `schema`
    *("type", "format", "items", "enum", "default", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"),
    *("maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "multipleOf", "x-nullable"),
)
LITERAL = ("example", "examples", "default", "enum", "const")  # values, not schemas: kept as they are
# collectionFormat -> (style, explode) of a query parameter (path and header arrays: `simple`)
STYLES = {"csv": ("form", False), "ssv": ("spaceDelimited", False), "pipes": ("pipeDelimited", False)}
STYLES["multi"] = ("form", True)
OAUTH_FLOWS = {"implicit": "implicit", "password": "password", "application": "clientCredentials"}
OAUTH_FLOWS["accessCode"] = "authorizationCode"
CONVERTED = (  # the document's keys that become others
    *("swagger", "host", "basePath", "schemes", "consumes", "produces", "paths", "definitions", "parameters"),
    *("responses", "securityDefinitions"),
)
# an operation's body parameter's name, kept on the operation as swagger2openapi's `rbname` option and
# openapi-generator keep it: OpenAPI 3 gives a request body no name (loaders/openapi.py reads it)
BODY_NAME = "x-codegen-request-body-name"
NOTE = "converted from Swagger 2.0 to OpenAPI 3.0 in-process (as swagger2openapi does)"


def own_terms(message: str) -> str:
    """A message about the converted document in the terms of the Swagger 2.0 one (`#/definitions/Pet`)."""
    for old, new in REFS.items():
        message = message.replace(new, old)
    return message


def is_swagger2(document: Any) -> bool:
    return isinstance(document, dict) and str(document.get("swagger", "")).strip() in ("2.0", "2")


def schema(node: Any) -> Any:
    """A Swagger 2.0 schema (or any part of the document) with its `$ref`s rewritten (their siblings dropped),
    `x-nullable` as `nullable`, a `discriminator` name as an object, what `_patched` mends mended."""
    if isinstance(node, list):
        return [schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    if isinstance(node.get("$ref"), str):  # what stands beside a $ref is ignored (JSON Reference): dropped
        return {"$ref": _ref(node["$ref"])}
    out = {}
    for key, value in node.items():
        if key in LITERAL or _extension(key):
            out[key] = value
        elif key in ("properties", "patternProperties") and isinstance(value, dict):  # keys are names, not keywords
            out[key] = {name: schema(v) for name, v in value.items()}
        elif key == "x-nullable" and isinstance(value, bool):
            out["nullable"] = value
        elif key == "discriminator" and isinstance(value, str):
            out[key] = {"propertyName": value}
        else:
            out[key] = schema(value)
    return _patched(out)


def _patched(out: dict) -> dict:
    """What swagger2openapi -p mends: a list of types (`[string, "null"]`: `nullable`, several: `oneOf`), the type
    `null`, tuple-form `items`, an array without `items`; `type: file` is a binary string."""
    kinds = out.pop("type", None)
    if isinstance(kinds, list):
        out |= {"nullable": True} if "null" in kinds else {}
        kinds = [k for k in kinds if k != "null"]
        if len(kinds) > 1:
            out["oneOf"] = [{"type": k} | ({"items": {}} if k == "array" else {}) for k in kinds]
        kinds = kinds[0] if len(kinds) == 1 else None
    if kinds == "null":  # no such type in OpenAPI 3.0
        out["nullable"] = True
    elif kinds is not None:
        out["type"] = kinds
    if isinstance(out.get("items"), list):  # tuple-form `items`: its one schema, else any of them
        out["items"] = out["items"][0] if len(out["items"]) == 1 else {"anyOf": out["items"]}
    if out.get("type") == "array" and "items" not in out:  # OpenAPI 3.0 requires `items`
        out["items"] = {}
    if out.get("type") == "file":
        out.update(type="string", format="binary")
    return out


def _ref(ref: str) -> str:
    for old, new in REFS.items():
        if ref.startswith(old):
            return new + ref[len(old) :]
    return ref


def _dict(node: dict, key: str) -> dict:
    value = node.get(key)
    return value if isinstance(value, dict) else {}


def _list(node: dict, key: str) -> list:
    value = node.get(key)
    return value if isinstance(value, list) else []


def _media(types: Any, default: list[str]) -> list[str]:
    return [str(t) for t in types] if isinstance(types, list) and types else default


def convert(document: dict, where: str = "document") -> dict:
    """The OpenAPI 3.0 equivalent of a Swagger 2.0 document (a new object; the input is unchanged)."""
    consumes = _media(document.get("consumes"), ["application/json"])
    produces = _media(document.get("produces"), ["*/*"])
    shared = _dict(document, "parameters")
    out: dict[str, Any] = {"openapi": "3.0.0"}
    for key, value in document.items():
        if key not in CONVERTED:
            out[key] = schema(value)
    out["servers"] = _servers(document)
    paths = document.get("paths")
    if paths is not None and not isinstance(paths, dict):
        raise CatalogError(f"{where}: 'paths' must be an object")
    out["paths"] = {
        path: _path_item(item, shared, consumes, produces, (where, path)) for path, item in (paths or {}).items()
    }
    components = _components(document, shared, produces)
    if components:
        out["components"] = components
    return out


def _servers(document: dict) -> list[dict]:
    base = str(document.get("basePath") or "")
    host = document.get("host")
    if not host:
        return [{"url": base or "/"}]
    schemes = _media(document.get("schemes"), ["https"])
    return [{"url": f"{scheme}://{host}{base}"} for scheme in schemes]


def _components(document: dict, shared: dict, produces: list[str]) -> dict:
    components: dict[str, Any] = {}
    if isinstance(document.get("definitions"), dict):
        components["schemas"] = {name: schema(s) for name, s in document["definitions"].items()}
    kept = {k: _parameter(p) for k, p in shared.items() if not _in_body(p)}
    if kept:
        components["parameters"] = kept
    if isinstance(document.get("responses"), dict):
        components["responses"] = {k: _response(r, produces) for k, r in document["responses"].items()}
    if isinstance(document.get("securityDefinitions"), dict):
        components["securitySchemes"] = {k: _security(s) for k, s in document["securityDefinitions"].items()}
    return components


def _in_body(p: Any) -> bool:
    return isinstance(p, dict) and p.get("in") in ("body", "formData")


def _parameter(p: Any) -> Any:
    """A path, query or header parameter with its type keywords as `schema`; a `$ref` rewritten."""
    if not isinstance(p, dict):
        return p
    if "$ref" in p:
        return schema(p)
    out = {k: schema(v) for k, v in p.items() if k not in SCHEMA_KEYS and k != "collectionFormat"}
    out["schema"] = _type_schema(p)
    if p.get("type") == "array":
        style, explode = STYLES.get(str(p.get("collectionFormat") or "csv"), ("form", False))
        if p.get("in") in ("path", "header"):
            style = "simple"
        out.update(style=style, explode=explode)
    return out


def _type_schema(p: dict, typed: bool = True) -> dict:
    """The `schema` of a non-body parameter or a header: its type keywords (an `items`' own collectionFormat dropped);
    without a type, the `schema` it declares (OpenAPI 3's way, met in 2.0 files), else a string (invalid Swagger 2.0
    that swagger2openapi -p patches so)."""
    if typed and "type" not in p and isinstance(p.get("schema"), dict):
        return schema(p["schema"])
    found = ({"type": "string"} if typed and "type" not in p else {}) | {k: p[k] for k in SCHEMA_KEYS if k in p}
    if isinstance(found.get("items"), dict):
        found["items"] = _type_schema(found["items"], typed=False)
    return schema(found)


def _security(s: Any) -> Any:
    if not isinstance(s, dict):
        return s
    kind = s.get("type")
    if kind == "basic":
        return {"type": "http", "scheme": "basic"} | ({"description": s["description"]} if "description" in s else {})
    if kind != "oauth2":
        return schema(s)
    flow = {k: s[k] for k in ("authorizationUrl", "tokenUrl") if k in s} | {"scopes": s.get("scopes") or {}}
    rest = {k: v for k, v in s.items() if k not in ("flow", "authorizationUrl", "tokenUrl", "scopes")}
    return rest | {"flows": {OAUTH_FLOWS.get(str(s.get("flow")), str(s.get("flow"))): flow}}


def _path_item(item: Any, shared: dict, consumes: list[str], produces: list[str], where: tuple[str, str]) -> Any:
    """A path item: its own path/query/header parameters kept; its body and form parameters given to each operation."""
    if not isinstance(item, dict) or "$ref" in item:
        return schema(item)
    common = _list(item, "parameters")
    out = {k: schema(v) for k, v in item.items() if k not in (*METHODS, "parameters")}
    params = [p for p in common if not _in_body(_shared(p, shared))]
    if params:
        out["parameters"] = [_parameter(p) for p in params]
    body = [p for p in common if _in_body(_shared(p, shared))]
    for method in METHODS:
        if isinstance(item.get(method), dict):
            located = f"{where[0]}: {method.upper()} {where[1]}"
            out[method] = _operation(item[method], body, shared, (consumes, produces), located)
    return out


def _shared(p: Any, shared: dict) -> Any:
    """A parameter, or the document-level parameter its `$ref` names."""
    ref = p.get("$ref") if isinstance(p, dict) else None
    if isinstance(ref, str) and ref.startswith("#/parameters/"):
        name = ref[len("#/parameters/") :].replace("~1", "/").replace("~0", "~")
        return shared.get(name, shared.get(unquote(name), p))
    return p


def _operation(op: dict, inherited: list, shared: dict, media: tuple[list[str], list[str]], where: str) -> dict:
    consumes = _media(op.get("consumes"), media[0])
    produces = _media(op.get("produces"), media[1])
    own = _list(op, "parameters")
    out = {
        k: schema(v) for k, v in op.items() if k not in ("parameters", "consumes", "produces", "responses", "schemes")
    }
    params = [p for p in own if not _in_body(_shared(p, shared))]
    if params:
        out["parameters"] = [_parameter(p) for p in params]
    body = _by_name([_shared(p, shared) for p in [*inherited, *own] if _in_body(_shared(p, shared))])
    request = _request_body(body, consumes, where)
    if request:
        out["requestBody"] = request
    named = _body_parameter(body).get("name")
    if request and isinstance(named, str) and named:  # the body's name, as swagger2openapi's `rbname` keeps it
        out[BODY_NAME] = named
    responses = op.get("responses")
    if isinstance(responses, dict):
        out["responses"] = {str(status): _response(r, produces) for status, r in responses.items()}
    return out


def _by_name(params: list[dict]) -> list[dict]:
    """Body and form parameters, an operation's own overriding the path item's of the same name."""
    return list({(str(p.get("in")), str(p.get("name"))): p for p in params}.values())


def _request_body(params: list[dict], consumes: list[str], where: str) -> dict | None:
    """The request body of a `body` parameter (the operation's own before the path item's), else of the `formData`
    parameters; None when there is neither."""
    body = _body_parameter(params) or None
    if body is None:
        form = [p for p in params if p.get("in") == "formData"]
        return _form_body(form, consumes, where) if form else None
    if not isinstance(body.get("schema"), dict):
        raise CatalogError(f"{where}: body parameter {body.get('name')!r} has no schema")
    found = schema(body["schema"])
    request: dict[str, Any] = {"content": {media: {"schema": found} for media in consumes}}
    return request | {k: body[k] for k in ("description", "required") if k in body}


def _body_parameter(params: list[dict]) -> dict:
    """The `body` parameter of an operation (its own before the path item's), {} when it has none."""
    return next((p for p in reversed(params) if p.get("in") == "body"), {})


def _form_body(form: list[dict], consumes: list[str], where: str) -> dict:
    """`formData` parameters as one object schema: multipart when it is consumed, else URL-encoded."""
    properties = {}
    for p in form:
        if not p.get("name") or not isinstance(p["name"], str):
            raise CatalogError(f"{where}: a formData parameter needs a name")
        kept = {k: v for k, v in p.items() if k in ("description", "example") or _extension(k)}
        properties[str(p["name"])] = _type_schema(p) | kept
    required = [str(p["name"]) for p in form if p.get("required")]
    found = {"type": "object", "properties": properties} | ({"required": required} if required else {})
    multipart = any(m.split(";")[0].strip().lower() == "multipart/form-data" for m in consumes)
    media = "multipart/form-data" if multipart else "application/x-www-form-urlencoded"
    return {"content": {media: {"schema": found}}} | ({"required": True} if required else {})


def _extension(key: Any) -> bool:
    """An `x-` extension other than `x-nullable` (which becomes `nullable`): kept as it is."""
    return str(key).startswith("x-") and key != "x-nullable"


def _response(r: Any, produces: list[str]) -> Any:
    """A response: its `schema` under each media type produced, its headers' type keywords as their `schema`."""
    if not isinstance(r, dict) or "$ref" in r:
        return schema(r)
    out = {k: schema(v) for k, v in r.items() if k not in ("schema", "headers", "examples")}
    out.setdefault("description", "")
    if isinstance(r.get("schema"), dict):
        found = schema(r["schema"])
        out["content"] = {media: {"schema": found} for media in produces}
    if isinstance(r.get("headers"), dict):
        out["headers"] = {name: _header(h) if isinstance(h, dict) else h for name, h in r["headers"].items()}
    return out


def _header(h: dict) -> dict:
    return {k: h[k] for k in ("description",) if k in h} | {"schema": _type_schema(h)}
