"""Keep some paths of an OpenAPI 3.x document and only the components they reference (transitively).

    python subset_openapi.py IN.json OUT.json REGEX [REGEX ...]

A path is kept when any REGEX matches it (re.fullmatch). Everything else of the document (info,
servers, security ...) is kept as is; `info.description` gets a line saying it is a subset.
"""
from __future__ import annotations

import json
import re
import sys


def refs(node, out: set[str]) -> set[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/"):
            out.add(ref)
        for value in node.values():
            refs(value, out)
    elif isinstance(node, list):
        for value in node:
            refs(value, out)
    return out


def subset(document: dict, patterns: list[str]) -> dict:
    keep = {p: item for p, item in document["paths"].items() if any(re.fullmatch(x, p) for x in patterns)}
    todo, seen = refs(keep, set()), set()
    while todo:
        ref = todo.pop()
        if ref in seen:
            continue
        seen.add(ref)
        _, _, kind, name = ref.split("/", 3)
        todo |= refs(document["components"][kind][name.replace("~1", "/").replace("~0", "~")], set()) - seen
    components = {}
    for ref in sorted(seen):
        _, _, kind, name = ref.split("/", 3)
        name = name.replace("~1", "/").replace("~0", "~")
        components.setdefault(kind, {})[name] = document["components"][kind][name]
    for kind in ("securitySchemes",):  # referenced by name, not by $ref
        if kind in document.get("components", {}):
            components[kind] = document["components"][kind]
    out = {k: v for k, v in document.items() if k not in ("paths", "components")}
    out["info"] = dict(out.get("info", {}))
    out["info"]["description"] = (out["info"].get("description", "") + "\n\nSubset for kg-tools' real-catalog "
                                  f"dev set: {len(keep)} of {len(document['paths'])} paths kept "
                                  "(see benchmarks/data/real/README.md).").strip()
    out["paths"] = keep
    out["components"] = components
    return out


if __name__ == "__main__":
    source, target, *patterns = sys.argv[1:]
    doc = json.load(open(source, encoding="utf-8"))
    with open(target, "w", encoding="utf-8") as f:
        json.dump(subset(doc, patterns), f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
