"""OpenAPI 3.0 / 3.1 (JSON or YAML; Swagger 2.0 converted first, loaders/swagger2.py) -> one tool per operation.

Name: the operationId, else `<method> <path>`, sanitised to [A-Za-z0-9_-]. Description: summary and description.
Parameters: path, query and header parameters (path-level ones overridden by the operation's; not an apiKey security
scheme's credential, nor an Accept, Content-Type or Authorization header) and the properties of the JSON request body
(not its `readOnly` ones, which the server sends and never takes: named in the input schema's `x-read-only`),
flattened into one list; each keeps where it goes (`in`: path | query | header | body). `input_schema`: the JSON
schema of those parameters (one property each, a body property with its nested objects, `allOf` members merged,
`readOnly` properties inside left out), size-capped like an output schema, so `deps infer` can read ids inside body
objects (`data.workspace`, `parent.id`). Local `$ref`s (#/components/...) are resolved where they are used
(parameters, request bodies), by the bounded resolver of loaders/bounded.py: each target once, a reference cycle cut
(the inner occurrence keeps only its type and description), the output limited in size and depth. No dependency edges
(see `kg-tools deps infer`).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from kg_tools.errors import CatalogError, DocumentTooLargeError
from kg_tools.loaders import swagger2
from kg_tools.loaders.bounded import MAX_EXPANSION_BYTES, Dangling, RefResolver, parse_document
from kg_tools.loaders.common import CatalogSource, reworded
from kg_tools.loaders.json_schema import (
    MAX_TOOL_NAME,
    capped_schema,
    check_schema,
    merged_all_of,
    object_parameters,
    parameter,
    read_only,
    tool_name,
    writable,
)

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace", "query")  # query: OpenAPI 3.2
PARAMETER_PLACES = ("path", "query", "header")
PLACES = (*PARAMETER_PLACES, "cookie", "querystring")  # where a parameter may be (cookies are not kept)
IGNORED_HEADERS = ("accept", "content-type", "authorization")  # OpenAPI 3: "the parameter definition SHALL be ignored"
MAX_OPERATIONS = 5_000  # per document: a bigger one is refused (no real API we know has more than ~1,500)
MAX_LINKS = 50  # OpenAPI links kept per response
RESPONSE_BUDGET = 2_000_000  # characters one response schema may expand to while its $refs are resolved
# ... and all of them together, per document (the $ref budget of loaders/bounded.py): a document past it
# is refused before any schema is cut to size (that costs time in proportion to the expanded size).
RESPONSES_BUDGET = MAX_EXPANSION_BYTES


# the request bodies read, in this order when several are offered: JSON, then the two form encodings
FORM_MEDIA_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
ANY_MEDIA_TYPES = ("*/*",)  # a response's content read as JSON when no JSON media type is offered
# streams of JSON texts (newline-delimited JSON, JSON Lines, RFC 7464 sequences): the schema is one text's, so
# the response is read as an array of it when no JSON media type is offered
JSON_SEQUENCE_TYPES = (
    "application/x-ndjson",
    "application/ndjson",
    "application/jsonl",
    "application/x-jsonlines",
    "application/jsonlines",
    "application/json-seq",
)
JSON_KINDS = {list: "a list", str: "a string", int: "a number", float: "a number", bool: "true or false"}
HASH_LENGTH = 8  # hex digits of the suffix that tells colliding names apart


def _is_json(media: str) -> bool:
    return media == "application/json" or media.endswith("+json")


def _body_schema(body: dict, media_types: tuple[str, ...] = ()) -> tuple[str, dict] | None:
    """(media type without its parameters, schema) of the first JSON content, else of the first of
    `media_types` offered; None when the body has neither."""
    found = _body_entry(body, media_types)
    return (found[0], found[1].get("schema") or {}) if found else None


def _body_entry(body: dict, media_types: tuple[str, ...] = ()) -> tuple[str, dict] | None:
    """(media type without its parameters, media type object) as _body_schema chooses it."""
    offered = _offered(body)
    for media, entry in offered.items():
        if _is_json(media):
            return media, entry
    for media in media_types:
        if media in offered:
            return media, offered[media]
    return None


def _offered(body: dict) -> dict[str, dict]:
    """A body's content: media type without its parameters, lower case -> media type object ({} if none)."""
    content = body.get("content")
    return {
        str(media).split(";")[0].strip().lower(): (entry if isinstance(entry, dict) else {})
        for media, entry in (content.items() if isinstance(content, dict) else ())
    }


def _json_body(body: dict, media_types: tuple[str, ...] = ANY_MEDIA_TYPES) -> dict | None:
    """A response's JSON schema; a stream of JSON texts as an array of the text's schema (Lichess's
    `application/x-ndjson` game exports), else `*/*` (any media type, JSON among them: Swagger 2 `produces` left
    unset and converted, as in Casdoor's and Squadcast's specs) when no JSON content is offered."""
    found = _body_entry(body, JSON_SEQUENCE_TYPES + media_types)
    if not found:
        return None
    media, entry = found
    return _stream_schema(entry) if media in JSON_SEQUENCE_TYPES else entry.get("schema") or {}


def _stream_schema(entry: dict) -> dict:
    """A stream's schema as an array of one text's: OpenAPI 3.2's `itemSchema`, else `schema` when it is an array
    already (3.2: the whole stream), else `schema` as one text's (Lichess's, written before 3.2)."""
    item, schema = entry.get("itemSchema"), entry.get("schema")
    if item:
        return {"type": "array", "items": item}
    if not schema or (isinstance(schema, dict) and schema.get("type") == "array"):
        return schema or {}
    return {"type": "array", "items": schema}


def _best_effort(body: dict) -> bool:
    """The response's schema is read from `*/*` or a stream of JSON texts only: kept when it is sound, dropped with
    a warning otherwise (a document that offers no JSON response is not refused for it)."""
    return _body_schema(body) is None


def titled(document: dict) -> dict:
    """The document with each component schema that has no `title` titled by its name (`PlaylistObject`), so a
    resolved output schema still says which resource each object is (a shallow copy; the input is unchanged)."""
    components = document.get("components")
    if not isinstance(components, dict) or not isinstance(components.get("schemas"), dict):
        return document
    schemas: dict = components["schemas"]
    named = {k: ({"title": k, **v} if isinstance(v, dict) and "title" not in v else v) for k, v in schemas.items()}
    return {**document, "components": {**components, "schemas": named}}


def _first_success(resolver: RefResolver, op: dict) -> tuple[str, dict] | None:
    """The first 2xx response (`200` first) that is an object, with its status; `$ref`s at its top and in its
    `content` followed."""
    responses = op.get("responses")
    if not isinstance(responses, dict):
        return None
    statuses = sorted((k for k in responses if str(k)[:1] == "2"), key=lambda k: (str(k) != "200", str(k)))
    for status in statuses:
        response = _with_content(resolver, resolver.deref(responses[status]))
        if isinstance(response, dict):
            return str(status), response
    return None


def _response_schema(resolver: RefResolver, op: dict) -> tuple[str, dict, Any] | None:
    """The first 2xx response (status, the response, its JSON schema or None)."""
    found = _first_success(resolver, op)
    return (*found, _json_body(found[1])) if found else None


def _with_content(resolver: RefResolver, response: Any) -> Any:
    """The response with a `$ref`'d `content` map and `$ref`'d media type entries followed (Lob's `content: {$ref:
    '#/components/mediaTypes/…'}`, OpenAPI 3.2's media type references); anything else as it is."""
    if not isinstance(response, dict) or not isinstance(response.get("content"), dict):
        return response
    content = resolver.deref(response["content"])
    if not isinstance(content, dict):
        return response
    return {**response, "content": {media: resolver.deref(entry) for media, entry in content.items()}}


def check_responses_budget(document: dict, operations: list[dict], where: str) -> None:
    """Refuse a document whose response schemas together expand past RESPONSES_BUDGET once their `$ref`s
    are resolved. Cheap: each target is resolved once and a repeat only adds its size (loaders/bounded.py),
    so a fan-out of shared `$ref`s is refused in milliseconds, before `capped_schema` walks any of it."""
    # a `$ref` the document does not hold reads as `{}` here too (each operation's pass warns of it): one in a
    # shared schema must not take the responses out of the budget
    resolver = RefResolver(document, where, max_expansion=RESPONSES_BUDGET, dangling=Dangling())
    for op in operations:
        try:
            found = _response_schema(resolver, op)
        except CatalogError:  # a remote `$ref`, a `$ref` '#': the operation's own pass says where
            continue
        if found and found[2] and not _best_effort(found[1]):  # a `*/*` schema past the budget is only not kept
            try:
                resolver.resolve(found[2])
            except DocumentTooLargeError as exc:
                raise DocumentTooLargeError(
                    f"{where}: the response schemas expand to more than {RESPONSES_BUDGET:,} characters once "
                    "their $refs are resolved (references fanning out); nothing written"
                ) from exc
            except CatalogError:  # too deep, a bad $ref ...: the operation's own pass says so, or warns
                continue


def response_facts(resolver: RefResolver, op: dict, where: str, warnings: list[str] | None) -> dict:
    """The first 2xx response's JSON schema (`output_schema`: $refs resolved within a budget, cut to
    MAX_OUTPUT_SCHEMA_CHARS) and its `links`, with the status they came from; `response_media_type` when it (with no
    2xx response, `default`) answers with a file."""
    found = _first_success(resolver, op)
    if not found:
        media = _file_media(resolver, _default_response(resolver, op))
        return {"response_media_type": media} if media else {}
    status, response = found
    facts: dict = {"response_status": status}
    links = response.get("links")
    if isinstance(links, dict) and links:
        kept = {}
        for name, link in list(links.items())[:MAX_LINKS]:
            link = resolver.deref(link)
            if isinstance(link, dict):
                kept[str(name)] = {
                    k: resolver.resolve(v)
                    for k, v in link.items()
                    if k in ("operationId", "operationRef", "parameters", "description")
                }
        facts["links"] = kept
    output = _output_schema(resolver, response, where, status, warnings)
    if output is not None:
        facts["output_schema"] = output
    if media := _file_media(resolver, response):
        facts["response_media_type"] = media
    return facts


def _file_media(resolver: RefResolver, response: Any) -> str | None:
    """The media type of a response that answers with a file, not a JSON value: it offers no JSON, no stream of JSON
    texts and no `*/*` (an image, a PDF, CSV, plain text), or what it offers as JSON is a binary string (Komga's
    thumbnails: `application/json` and `image/jpeg`, both `format: binary`). The first media type offered that is
    not JSON; None otherwise."""
    content = response.get("content") if isinstance(response, dict) else None
    if not isinstance(content, dict) or not content:
        return None
    schema = _json_body(response)
    if schema is not None:
        try:
            schema = resolver.deref(schema)
        except CatalogError:  # a `$ref` that does not resolve: the output schema's own reading says so
            return None
        if not (isinstance(schema, dict) and schema.get("format") == "binary"):
            return None
    offered = [str(media).split(";")[0].strip().lower() for media in content]
    return next((m for m in offered if not _is_json(m)), offered[0])[:200] or None


def _default_response(resolver: RefResolver, op: dict) -> Any:
    """The `default` response of an operation that declares no 2xx one (what a success answers with too)."""
    responses = op.get("responses")
    default = responses.get("default") if isinstance(responses, dict) else None
    return _with_content(resolver, resolver.deref(default)) if default is not None else None


def _output_schema(
    resolver: RefResolver, response: dict, where: str, status: str, warnings: list[str] | None
) -> dict | None:
    """The response's JSON schema resolved and cut to size; None, with a warning, when it is too large or too deep
    once resolved, or an unsound schema read from `*/*` only."""
    schema = _json_body(response)
    if not schema:
        return None
    resolver.emitted = 0  # each response has its own budget
    best_effort = _best_effort(response)
    check = f"responses/{status}/content/schema"
    try:
        resolved = resolver.resolve(schema)
        if best_effort:
            check_schema(resolved, f"{resolver.where}: {where}", check)
    except CatalogError as exc:  # too large or too deep once resolved, or unsound `*/*`: no output schema
        if not (best_effort or isinstance(exc, DocumentTooLargeError) or "nested more than" in str(exc)):
            raise
        if warnings is not None:
            warnings.append(f"{where}: {status} response schema not kept ({' '.join(str(exc).split())[:200]})")
        return None
    if not best_effort:
        check_schema(resolved, f"{resolver.where}: {where}", check)
    return (
        capped_schema(resolved, f"{where}: {status} response schema", warnings) if isinstance(resolved, dict) else None
    )


def _operation_name(op: dict, method: str, path: str, warnings: list[str] | None) -> str:
    """The operationId as a tool name, else `<method> <path>`: also when none of the operationId's characters is one
    a name may hold (`获取用户`, `____`: valid OpenAPI, nothing left once cleaned), with a warning."""
    given = op.get("operationId")
    if given:
        try:
            return tool_name(given)
        except CatalogError:
            if warnings is not None:
                warnings.append(
                    f"{method.upper()} {path}: operationId {str(given)[:80]!r} gives no tool name; named by its method and path"
                )
    return tool_name(f"{method} {path}")


def operation_entry(
    resolver: RefResolver,
    path: str,
    method: str,
    item: dict,
    op: dict,
    responses: RefResolver | None = None,
    warnings: list[str] | None = None,
) -> dict:
    where = f"{method.upper()} {path}"
    name = _operation_name(op, method, path, warnings)
    params, schemas = _operation_parameters(resolver, item, op, where)
    taken = {p["name"] for p in params}
    body, body_schemas, media, unsent = _body_parameters(resolver, op, where, taken)
    params += [p for p in body if p["name"] not in taken]
    schemas = body_schemas | schemas  # a path/query/header parameter wins over a body property of its name
    description = _description(op)
    facts = response_facts(responses or resolver, op, where, warnings)
    entry = {
        "name": name,
        "description": description + ("." if description else ""),
        "parameters": params,
        "func_type": "regular",
        "depends_on": [],
        "http": _http_facts(path, method, op, facts | ({"request_media_type": media} if media else {})),
    }
    if params:
        entry["input_schema"] = _input_schema(params, schemas, where, warnings, sorted(unsent - taken))
    if "output_schema" in facts:
        entry["output_schema"] = facts["output_schema"]
    return entry


def _input_schema(
    params: list[dict], schemas: dict[str, Any], where: str, warnings: list[str] | None, unsent: list[str]
) -> dict:
    """The parameters as one object schema (each parameter's own schema, its description added, `allOf`s
    merged, `readOnly` properties inside it left out), cut to MAX_OUTPUT_SCHEMA_CHARS with a warning like an output
    schema; `unsent`, the body's own read-only properties left out of the parameters, named in `x-read-only` as
    `writable` names those of a nested object."""
    props: dict[str, Any] = {}
    for p in params:
        schema = schemas.get(p["name"])
        schema = writable(merged_all_of(schema)) if isinstance(schema, dict) else {}
        if p.get("description") and not schema.get("description"):
            schema = {**schema, "description": p["description"]}
        props.setdefault(p["name"], schema)
    required = list(dict.fromkeys(p["name"] for p in params if p.get("required")))
    schema = {"type": "object", "properties": props} | ({"required": required} if required else {})
    return capped_schema(schema | ({"x-read-only": unsent} if unsent else {}), f"{where}: input schema", warnings)


def _operation_parameters(resolver: RefResolver, item: dict, op: dict, where: str) -> tuple[list[dict], dict[str, Any]]:
    """The path, query and header parameters (the path item's, overridden by the operation's) and their schemas
    by name; a cookie parameter, one that is an `apiKey` security scheme's credential (Dawarich's `api_key` query
    parameter, Nomad's `X-Nomad-Token` header: the caller's key, no value a tool hands out) and an `Accept`,
    `Content-Type` or `Authorization` header (ignored by the OpenAPI specification's word) are checked but not kept."""
    by_key: dict[tuple, dict] = {}
    credentials = _credentials(resolver)
    at = f"{resolver.where}: {where}"
    for raw in [*_parameter_list(item, at), *_parameter_list(op, at)]:
        by_key |= {(p["name"], p["in"]): p for p in _declared(resolver, raw, at)}
    kept = [p for p in by_key.values() if p["in"] in PARAMETER_PLACES and not _ignored(_credential(p), credentials)]
    params = [
        parameter(
            p["name"],
            p.get("schema") or {},
            p.get("required", p["in"] == "path"),
            _one_line(p.get("description")),
            **{"in": p["in"]},
        )
        for p in kept
    ]
    schemas: dict[str, Any] = {}
    for p in kept:
        schemas.setdefault(p["name"], p.get("schema") or {})
    return params, schemas


def _parameter_list(node: dict, where: str) -> list:
    """A path item's or an operation's `parameters` (none when absent)."""
    found = node.get("parameters") or []
    if not isinstance(found, list):
        raise CatalogError(f"{where}: 'parameters' must be a list, not {JSON_KINDS.get(type(found), 'an object')}")
    return found


def _declared(resolver: RefResolver, raw: Any, where: str) -> list[dict]:
    """The parameter(s) one entry of a `parameters` list declares, its schema checked: none for a `$ref` to a
    parameter the document does not hold (warned of), a `querystring` one's fields (`_query_string`)."""
    p = resolver.resolve(raw)
    named = isinstance(p, dict) and isinstance(p.get("name"), str) and p["name"]
    if not named and resolver.dangles(raw):  # its siblings (a `description`) are no parameter either
        return []
    if not named or p.get("in") not in PLACES:
        raise CatalogError(f"{where}: a parameter needs a name and 'in' ({', '.join(PLACES)}): got {_got(p, raw)}")
    if p["in"] == "querystring":
        return _query_string(p, where)
    check_schema(p.get("schema") or {}, where, f"parameters/{p['name']}/schema")
    return [p]


def _got(p: Any, raw: Any) -> str:
    """What a parameter entry with no name or place holds, for the error that refuses it."""
    ref = raw.get("$ref") if isinstance(raw, dict) else None
    if isinstance(p, dict) and "$ref" in p:  # still a `$ref` once resolved: its target leads back to itself
        return f"a cycle of $refs through {ref!r:.200}"
    got = f"name {p.get('name')!r}, in {p.get('in')!r}" if isinstance(p, dict) else _one_line(repr(p))[:80]
    return got if ref is None else f"{got} from $ref {_one_line(repr(ref))[:200]}"


def _query_string(p: dict, where: str) -> list[dict]:
    """OpenAPI 3.2's `in: querystring` parameter (the whole query string, its schema under `content`, as a form):
    the properties of an object schema as query parameters, any other schema as one query parameter of its name."""
    content = p.get("content")
    media = next(iter(content.values()), None) if isinstance(content, dict) else None
    schema = (media.get("schema") if isinstance(media, dict) else None) or {}
    check_schema(schema, where, f"parameters/{p['name']}/content/schema")
    properties = (
        schema.get("properties") if isinstance(schema, dict) and schema.get("type", "object") == "object" else None
    )
    if not isinstance(properties, dict) or not properties:
        return [{**p, "in": "query", "schema": schema if isinstance(schema, dict) else {}}]
    required: list = schema["required"] if isinstance(schema.get("required"), list) else []
    return [
        {"name": str(name), "in": "query", "schema": sub, "required": name in required}
        | ({"description": sub["description"]} if isinstance(sub, dict) and sub.get("description") else {})
        for name, sub in properties.items()
    ]


def _credentials(resolver: RefResolver) -> set[tuple[str, str]]:
    """(name, in) of every `apiKey` security scheme the document declares (components.securitySchemes)."""
    schemes = _dict(_dict(resolver.document.get("components")).get("securitySchemes")).values()
    return {_credential(s) for s in schemes if isinstance(s, dict) and s.get("type") == "apiKey" and s.get("name")}


def _credential(p: dict) -> tuple[str, str]:
    return str(p.get("name")).lower(), str(p.get("in"))


def _ignored(key: tuple[str, str], credentials: set[tuple[str, str]]) -> bool:
    """A credential, or a header the OpenAPI specification says a parameter definition of SHALL be ignored."""
    return key in credentials or (key[1] == "header" and key[0] in IGNORED_HEADERS)


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _body_parameters(
    resolver: RefResolver, op: dict, where: str, taken: set[str]
) -> tuple[list[dict], dict[str, Any], str | None, set[str]]:
    """The request body (JSON, else form-encoded, else multipart, else `*/*`, else text): an object's properties, any
    other schema (and any text) as one parameter (`_body_name`); their schemas by name; the body's media type; the
    names of the object's `readOnly` properties, which are no parameters (`_sent`)."""
    body = resolver.resolve(op.get("requestBody") or {})
    found = _request_schema(body) if isinstance(body, dict) else None
    media, schema = found or (None, None)
    if not schema:
        return [], {}, None, set()
    check_schema(schema, f"{resolver.where}: {where}", "requestBody/content/schema")
    schema = schema if isinstance(schema, dict) else {}  # `true` (3.1: any value) is one untyped parameter
    flat = not str(media).startswith("text/")  # a text body is sent as it is, whatever its schema says
    if flat and schema.get("type", "object") == "object" and "properties" in schema:
        sent, unsent = _sent(schema)
        params = object_parameters(sent, f"{resolver.where}: {where} request body", **{"in": "body"})
        if not body.get("required"):
            for p in params:
                p["required"] = False
        return params, dict(sent["properties"]), media, unsent
    name = _body_name(op, schema, taken)
    one = parameter(name, schema, bool(body.get("required")), _one_line(body.get("description")), **{"in": "body"})
    return [one], {name: schema}, media, set()


def _sent(schema: dict) -> tuple[dict, set[str]]:
    """A request body's object schema without its `readOnly` properties, and their names. OpenAPI 3.0: such a
    property "SHOULD NOT be sent as part of the request" (`required` then holds for the response only); Swagger 2.0:
    "MUST NOT"; 3.1 (JSON Schema): the server manages it and ignores or rejects a value sent. The `id`, `created_at`
    of a resource schema reused as its create body are no input of the tool, so no parameter (nothing wants a
    provider for them, and the input schema an agent reads does not offer them)."""
    props = schema["properties"] if isinstance(schema["properties"], dict) else {}
    unsent = {str(n) for n, sub in props.items() if read_only(sub)}
    if not unsent:
        return schema, set()
    return {**schema, "properties": {n: sub for n, sub in props.items() if n not in unsent}}, unsent


TEXT = "text/"  # a request body of a text media type (text/plain, text/csv): one value, typed as it is


def _request_schema(body: dict) -> tuple[str, dict] | None:
    """(media type, schema) of a request body as `_body_parameters` reads it: JSON, a form, `*/*` (any media type,
    JSON among them, as a response's), else the first text one (a string when it declares no schema); None for
    the others (a file: `application/octet-stream`, `image/png`), which stay unread."""
    found = _body_schema(body, (*FORM_MEDIA_TYPES, *ANY_MEDIA_TYPES))
    if found:
        return found
    text = [(media, entry) for media, entry in _offered(body).items() if media.startswith(TEXT)]
    return (text[0][0], text[0][1].get("schema") or {"type": "string"}) if text else None


def _body_name(op: dict, schema: dict, taken: set[str]) -> str:
    """The name of a request body read as one parameter: the spec's (`x-codegen-request-body-name`: a Swagger 2.0 body
    parameter's `name`) for a value (a string, a number, an array), unless a path, query or header parameter has it;
    `body` otherwise, and always for an object (an `allOf`, a `oneOf`: its properties are the request's fields,
    kg_tools.deps.producers.whole_body); `body_2` ... when a parameter is named `body` (the body is never dropped)."""
    named = op.get(swagger2.BODY_NAME)
    if schema.get("type", "object") != "object" and isinstance(named, str) and named.strip() and named not in taken:
        return named
    return numbered_body(taken)


def numbered_body(taken: set) -> str:
    """`body`, else the first of `body_2`, `body_3` ... no path, query or header parameter of the operation has (`taken`)."""
    name, n = "body", 1
    while name in taken:
        n += 1
        name = f"body_{n}"
    return name


def _one_line(text: Any) -> str:
    return " ".join(str(text or "").split())


def _description(op: dict) -> str:
    """Summary and description, each once, joined without their final full stops."""
    text = [_one_line(op.get(k)) for k in ("summary", "description")]
    return ". ".join(t.rstrip(".") for t in dict.fromkeys(text) if t)


def _http_facts(path: str, method: str, op: dict, facts: dict) -> dict[str, Any]:
    """The `http` object of an operation's tool: method, path, operationId, tags, deprecation, links, status."""
    http: dict[str, Any] = {"method": method.upper(), "path": path}
    if isinstance(op.get("operationId"), str):
        http["operation_id"] = op["operationId"]
    tags = [t for t in op.get("tags") or [] if isinstance(t, str)] if isinstance(op.get("tags"), list) else []
    if tags:
        http["tags"] = tags
    if op.get("deprecated") is True:
        http["deprecated"] = True
    if facts.get("links"):
        http["links"] = facts["links"]
    if facts.get("response_status"):
        http["response_status"] = facts["response_status"]
    for key in ("request_media_type", "response_media_type"):
        if facts.get(key):
            http[key] = facts[key]
    return http


def entries(document: Any, where: str, warnings: list[str] | None = None) -> list[dict]:
    if not isinstance(document, dict):
        kind = "the text is empty" if document is None else f"not {JSON_KINDS.get(type(document), 'that')}"
        raise CatalogError(f"{where}: an OpenAPI document must be an object ({kind})")
    if not swagger2.is_swagger2(document):
        return _entries(document, where, warnings)
    found: list[str] = []  # a converted document's warnings and errors name its own `$ref`s (`#/definitions/…`)
    try:
        return _entries(swagger2.convert(document, where), where, found)
    except CatalogError as exc:
        raise reworded(exc, swagger2.own_terms) from exc
    finally:
        if warnings is not None:
            warnings += [f"{where}: {swagger2.NOTE}", *map(swagger2.own_terms, found)]


def _entries(document: dict, where: str, warnings: list[str] | None) -> list[dict]:
    version = str(document.get("openapi", ""))
    if not version.startswith("3."):
        raise CatalogError(
            f"{where}: only OpenAPI 3.0/3.1/3.2 and Swagger 2.0 are supported (found {_version(document)})"
        )
    paths = document.get("paths") or {}
    if not isinstance(paths, dict):
        raise CatalogError(f"{where}: 'paths' must be an object")
    dangling = Dangling()
    resolver = RefResolver(document, where, dangling=dangling)
    responses = RefResolver(titled(document), where, max_expansion=RESPONSE_BUDGET, dangling=dangling)
    left_out: list[str] = []
    ops = _path_operations(resolver, paths, dangling, left_out)
    if left_out and warnings is not None:
        warnings.append(f"{where}: {len(left_out)} additionalOperations left out: {_first_few(left_out, '; ')}")
    if len(ops) > MAX_OPERATIONS:
        raise CatalogError(
            f"{where}: {len(ops):,} operations; at most {MAX_OPERATIONS:,} are imported from one "
            "document (split the spec)"
        )
    check_responses_budget(responses.document, [op for *_, op in ops], where)
    tools = []
    for path, method, item, op in ops:
        dangling.place = f"{method.upper()} {path}"
        tools.append(_located(resolver, path, method, item, op, responses, warnings))
    dangling.place = None  # what follows looks at the operations again
    if not tools:
        raise CatalogError(f"{where}: the document has no operations{_dangling_paths(dangling)}")
    _warn_dangling(dangling, where, warnings)
    unread = [f"{method.upper()} {path}" for path, method, _, op in ops if _unread_output(resolver, op)]
    if unread and warnings is not None:
        warnings.append(
            f"{where}: {len(unread)} of {len(ops)} operations answer only in a format other than JSON or only under "
            f"`default` (e.g. {unread[0]}): no output schema is kept for them, so inference cannot read what they return"
        )
    _warn_schemaless(resolver, ops, where, warnings)
    return distinct_names(tools)


MAX_DANGLING_WARNINGS = 20  # one warning per `$ref` that does not resolve, then one for the rest
MAX_PLACES_SHOWN = 5


Operation = tuple[str, str, dict, dict]  # path, method (lower case), path item, operation


def _path_operations(resolver: RefResolver, paths: dict, dangling: Dangling, left_out: list[str]) -> list[Operation]:
    """Every operation of every path item: the fixed methods (OpenAPI 3.2's `query` among them) and 3.2's
    `additionalOperations` (`LINK`, `COPY`: any other method, by its name), a `$ref`'d path item followed. An
    additional operation that is no other method (a fixed one, one already there in another case) or whose name is
    no HTTP method (`x-é`, past 16 characters) is left out, and said in `left_out`."""
    ops = []
    for path, item in paths.items():
        dangling.place = f"path {path}"
        item = resolver.deref(item)  # a path item may be a $ref; what it holds is resolved where used
        item = item if isinstance(item, dict) else {}
        ops += [(path, method, item, item[method]) for method in METHODS if isinstance(item.get(method), dict)]
        more = item.get("additionalOperations")
        seen: set[str] = set()
        for method, raw in more.items() if isinstance(more, dict) else ():
            op = resolver.deref(raw)
            if not isinstance(op, dict):
                continue
            why = _not_another_method(method, seen) or _no_operation(resolver, raw, op)
            if why:
                left_out.append(f"{_one_line(repr(method))[:40]} of {path} ({why})")
                continue
            seen.add(method.lower())
            ops.append((path, method.lower(), item, op))
    return ops


def _no_operation(resolver: RefResolver, raw: Any, op: dict) -> str:
    """Why an `additionalOperations` entry that is a `$ref` stands for no operation ('' when it does)."""
    if resolver.dangles(raw):
        return "its $ref does not resolve"
    return "its $ref leads back to itself" if "$ref" in op else ""


HTTP_METHOD = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,16}")  # an HTTP token (RFC 9110), as long as a tool's allows


def _not_another_method(method: Any, seen: set[str]) -> str:
    """Why an `additionalOperations` key is no operation of its own ('' when it is one)."""
    if not isinstance(method, str) or not HTTP_METHOD.fullmatch(method):
        return "not an HTTP method name of at most 16 characters"
    if method.lower() in METHODS:
        return f"a method with its own field, `{method.lower()}`"
    return f"{method.upper()} is there already" if method.lower() in seen else ""


def _warn_dangling(dangling: Dangling, where: str, warnings: list[str] | None) -> None:
    """A warning for each local `$ref` to a part the document does not hold (Focalboard's `BoardStatistics`),
    naming the operations it touched: what it stands for was read as empty (an untyped schema; a parameter,
    request body, response or path item left out)."""
    if warnings is None:
        return
    refs = list(dangling.places.items())
    for ref, used in refs[:MAX_DANGLING_WARNINGS]:
        places = list(used)
        shown = _first_few(places, ", ")
        warnings.append(
            f"{where}: $ref {ref[:200]!r} does not resolve (the document holds nothing there): read as an untyped "
            f"schema, or the parameter, request body, response or path item it stands for left out, in "
            f"{len(places)} operation{'s' if len(places) != 1 else ''} ({shown or 'none'})"
        )
    if len(refs) > MAX_DANGLING_WARNINGS:
        warnings.append(
            f"{where}: {len(refs) - MAX_DANGLING_WARNINGS} more $refs do not resolve, read alike "
            f"(e.g. {refs[MAX_DANGLING_WARNINGS][0][:200]!r})"
        )


def _first_few(items: list[str], separator: str) -> str:
    """The first MAX_PLACES_SHOWN of `items`, and how many more."""
    more = len(items) - MAX_PLACES_SHOWN
    return separator.join(items[:MAX_PLACES_SHOWN]) + (f" and {more} more" if more > 0 else "")


def _dangling_paths(dangling: Dangling) -> str:
    """For the error of a document left with no operations: the `$ref`s that did not resolve, if any."""
    if not dangling.places:
        return ""
    refs = list(dangling.places)
    more = f" and {len(refs) - 1} more" if len(refs) > 1 else ""
    return f" (its $ref {refs[0][:200]!r}{more} do{'' if more else 'es'} not resolve)"


def _warn_schemaless(resolver: RefResolver, ops: list[Operation], where: str, warnings: list[str] | None) -> None:
    """One warning for the operations whose first 2xx response offers JSON with no schema (often examples only,
    as rswag writes them): their output is unread and, unlike a body in another format, nothing said so."""
    bare = [
        (f"{m.upper()} {path}", entry) for path, m, _, op in ops if (entry := _schemaless(resolver, op)) is not None
    ]
    if bare and warnings is not None:
        shown = sum(1 for _, entry in bare if "example" in entry or "examples" in entry)
        warnings.append(
            f"{where}: {len(bare)} of {len(ops)} operations answer in JSON with no schema (e.g. {bare[0][0]}; "
            f"{shown} of them give examples, not read as a schema): no output schema is kept for them, so inference "
            "cannot read what they return"
        )


def _schemaless(resolver: RefResolver, op: dict) -> dict | None:
    """The media type entry of the operation's first 2xx response when it is JSON without a schema, else None."""
    found = _first_success(resolver, op)
    entry = _body_entry(found[1], JSON_SEQUENCE_TYPES) if found else None
    if entry is None or not _is_json(entry[0]) or entry[1].get("schema") or entry[1].get("itemSchema"):
        return None
    return entry[1]


def _unread_output(resolver: RefResolver, op: dict) -> bool:
    """The operation declares a response body that no output schema is read from: its first 2xx response offers
    neither JSON nor `*/*`, or it has no 2xx response and a `default` one with a body."""
    found = _response_schema(resolver, op)
    if found:
        return found[2] is None and bool(found[1].get("content"))
    responses = op.get("responses")
    default = resolver.deref(responses.get("default")) if isinstance(responses, dict) else None
    return isinstance(default, dict) and bool(default.get("content"))


def _located(
    resolver: RefResolver,
    path: str,
    method: str,
    item: dict,
    op: dict,
    responses: RefResolver,
    warnings: list[str] | None,
) -> dict:
    """The operation's tool; an error that does not say which operation it is in (a `$ref` that does not resolve,
    a schema nested too deep) says so."""
    try:
        return operation_entry(resolver, path, method, item, op, responses, warnings)
    except CatalogError as exc:
        where = f"{method.upper()} {path}"
        if where in str(exc):
            raise
        raise reworded(exc, lambda message: f"{message} (in {where})") from exc


def _version(document: dict) -> str:
    """The version a document says it is (`swagger 1.2`, `'2.0'`), for the error that refuses it."""
    for key in ("swagger", "swaggerVersion"):
        if key in document:
            return f"swagger {document[key]}"
    return repr(str(document.get("openapi", "")) or None)


def distinct_names(tools: list[dict]) -> list[dict]:
    """Each tool under a name of its own: when operations share a name once sanitised and cut to MAX_TOOL_NAME
    characters (two long operationIds with one start, `get /a/b` and `get /a/b/`), each gets its name cut shorter
    plus `_` and a hash of its method and path (stable: the same operation, the same name); an operationId that
    is a valid name as it stands keeps it. The operationId itself stays in `http.operation_id`."""
    groups: dict[str, list[dict]] = {}
    for tool in tools:
        groups.setdefault(tool["name"], []).append(tool)
    for name, group in groups.items():
        if len(group) < 2:
            continue
        kept = [t for t in group if t["http"].get("operation_id") == name]
        for tool in group:
            if len(kept) == 1 and tool is kept[0]:
                continue
            digest = hashlib.sha1(f"{tool['http']['method']} {tool['http']['path']}".encode()).hexdigest()
            tool["name"] = f"{name[: MAX_TOOL_NAME - HASH_LENGTH - 1].rstrip('_')}_{digest[:HASH_LENGTH]}"
    return tools


def load_text(text: str, where: str, catalog: str) -> CatalogSource:
    warnings: list[str] = []
    return CatalogSource(catalog, entries(parse_document(text, where), where, warnings), [], [where], warnings)


def load(path: Path, catalog: str | None = None) -> CatalogSource:
    path = Path(path)
    if not path.is_file():
        raise CatalogError(
            f"{path} is a directory; give a catalog file" if path.is_dir() else f"file not found: {path}"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise CatalogError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    return load_text(text, str(path), catalog or path.stem)
