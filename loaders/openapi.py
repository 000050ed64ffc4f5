"""OpenAPI 3.0 / 3.1 (JSON or YAML) -> one tool per operation.

Name: the operationId, else `<method> <path>`, sanitised to [A-Za-z0-9_-]. Description: summary and
description. Parameters: path, query and header parameters (path-level ones overridden by the
operation's) and the properties of the JSON request body, flattened into one list; each keeps
where it goes (`in`: path | query | header | body). Local `$ref`s (#/components/...) are resolved where
they are used (parameters, request bodies), by the bounded resolver of loaders/bounded.py: each target
once, a reference cycle cut (the inner occurrence keeps only its type and description), the output
limited in size and depth. No dependency edges (see `kg-tools deps infer`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from kg_tools.errors import CatalogError
from loaders.bounded import RefResolver, parse_document
from loaders.common import CatalogSource
from loaders.json_schema import object_parameters, parameter, tool_name

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
PARAMETER_PLACES = ("path", "query", "header")


def _json_body(body: dict) -> dict | None:
    content = body.get("content") or {}
    for media, entry in content.items():
        if media.split(";")[0].strip() == "application/json" or media.endswith("+json"):
            return (entry or {}).get("schema") or {}
    return None


def operation_entry(resolver: RefResolver, path: str, method: str, item: dict, op: dict) -> dict:
    name = tool_name(op.get("operationId") or f"{method} {path}")
    where = f"{method.upper()} {path}"
    by_key: dict[tuple, dict] = {}
    for raw in [*(item.get("parameters") or []), *(op.get("parameters") or [])]:
        p = resolver.resolve(raw)
        if not isinstance(p, dict) or not p.get("name") or p.get("in") not in (*PARAMETER_PLACES, "cookie"):
            raise CatalogError(f"{resolver.where}: {where}: a parameter needs a name and 'in'")
        by_key[(p["name"], p["in"])] = p
    params = [parameter(p["name"], p.get("schema") or {}, p.get("required", p["in"] == "path"),
                        " ".join(str(p.get("description") or "").split()), **{"in": p["in"]})
              for p in by_key.values() if p["in"] in PARAMETER_PLACES]
    body = resolver.resolve(op.get("requestBody") or {})
    schema = _json_body(body) if isinstance(body, dict) else None
    if schema:
        if schema.get("type", "object") == "object" and "properties" in schema:
            body_params = object_parameters(schema, f"{resolver.where}: {where} request body", **{"in": "body"})
            if not body.get("required"):
                for p in body_params:
                    p["required"] = False
        else:  # a non-object body (array, string ...) is one parameter
            body_params = [parameter("body", schema, bool(body.get("required")),
                                     " ".join(str(body.get("description") or "").split()), **{"in": "body"})]
        taken = {p["name"] for p in params}
        params += [p for p in body_params if p["name"] not in taken]
    text = [" ".join(str(op.get(k) or "").split()) for k in ("summary", "description")]
    description = ". ".join(t.rstrip(".") for t in dict.fromkeys(text) if t)
    return {"name": name, "description": description + ("." if description else ""), "parameters": params,
            "func_type": "regular", "depends_on": [], "http": {"method": method.upper(), "path": path}}


def entries(document: Any, where: str) -> list[dict]:
    if not isinstance(document, dict):
        raise CatalogError(f"{where}: an OpenAPI document must be an object")
    version = str(document.get("openapi", ""))
    if not version.startswith("3."):
        found = f"swagger {document['swagger']}" if "swagger" in document else repr(version or None)
        raise CatalogError(f"{where}: only OpenAPI 3.0/3.1 is supported (found {found})")
    paths = document.get("paths") or {}
    if not isinstance(paths, dict):
        raise CatalogError(f"{where}: 'paths' must be an object")
    resolver = RefResolver(document, where)
    tools = []
    for path, item in paths.items():
        item = resolver.deref(item)  # a path item may be a $ref; what it holds is resolved where used
        item = item if isinstance(item, dict) else {}
        for method in METHODS:
            if isinstance(item.get(method), dict):
                tools.append(operation_entry(resolver, path, method, item, item[method]))
    if not tools:
        raise CatalogError(f"{where}: the document has no operations")
    return tools


def load_text(text: str, where: str, catalog: str) -> CatalogSource:
    return CatalogSource(catalog, entries(parse_document(text, where), where), [], [where])


def load(path: Path, catalog: str | None = None) -> CatalogSource:
    path = Path(path)
    if not path.is_file():
        raise CatalogError(f"{path} is a directory; give a catalog file" if path.is_dir() else f"file not found: {path}")
    return load_text(path.read_text(encoding="utf-8"), str(path), catalog or path.stem)
