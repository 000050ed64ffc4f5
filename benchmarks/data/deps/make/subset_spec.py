"""What the corpus-oa-d / corpus-oa-e builders share: a coherent subset of an OpenAPI document (whole paths and
every component they reference)."""
from __future__ import annotations

import re

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def refs(node, out):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/"):
            out.add(ref)
        for v in node.values():
            refs(v, out)
    elif isinstance(node, list):
        for v in node:
            refs(v, out)
    return out


def subset(doc, patterns, task):
    keep = {p: item for p, item in doc["paths"].items() if any(re.fullmatch(x, p) for x in patterns)}
    todo, seen = refs(keep, set()), set()
    while todo:
        ref = todo.pop()
        if ref in seen:
            continue
        seen.add(ref)
        _, _, kind, name = ref.split("/", 3)
        todo |= refs(doc["components"][kind][name.replace("~1", "/").replace("~0", "~")], set()) - seen
    comps = {}
    for ref in sorted(seen):
        _, _, kind, name = ref.split("/", 3)
        name = name.replace("~1", "/").replace("~0", "~")
        comps.setdefault(kind, {})[name] = doc["components"][kind][name]
    if "securitySchemes" in doc.get("components", {}):
        comps["securitySchemes"] = doc["components"]["securitySchemes"]
    out = {k: v for k, v in doc.items() if k not in ("paths", "components")}
    out["info"] = dict(out.get("info", {}))
    n_ops = sum(1 for i in keep.values() for m in i if m in METHODS)
    out["info"]["description"] = (str(out["info"].get("description", "")) + "\n\nSubset for kg-tools' dependency "
                                  f"corpus ({task}): {len(keep)} of {len(doc['paths'])} paths, {n_ops} "
                                  f"operations kept (see benchmarks/data/deps/make/{task}_build.py).").strip()
    out["paths"] = keep
    out["components"] = comps
    return out
