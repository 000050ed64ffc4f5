"""What the corpus builders share: a coherent subset of an OpenAPI document (whole paths and every component they
reference, transitively)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

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


def _kind_and_name(ref: str) -> tuple[str, str]:
    _, _, kind, name = ref.split("/", 3)
    return kind, name.replace("~1", "/").replace("~0", "~")


def closure(document: dict, keep: dict) -> tuple[dict, set[str]]:
    """The components `keep` references, transitively (securitySchemes, referenced by name, whole), and the
    references that point nowhere."""
    todo, seen, missing = refs(keep, set()), set(), set()
    while todo:
        ref = todo.pop()
        if ref in seen:
            continue
        seen.add(ref)
        kind, name = _kind_and_name(ref)
        node = document["components"].get(kind, {}).get(name)
        if node is None:
            missing.add(ref)
            continue
        todo |= refs(node, set()) - seen
    components: dict = {}
    for ref in sorted(seen - missing):
        kind, name = _kind_and_name(ref)
        components.setdefault(kind, {})[name] = document["components"][kind][name]
    if "securitySchemes" in document.get("components", {}):
        components["securitySchemes"] = document["components"]["securitySchemes"]
    return components, missing


def subset(doc, patterns, task):
    """The paths matching a pattern and their components (corpus-oa-d, corpus-oa-e)."""
    keep = {p: item for p, item in doc["paths"].items() if any(re.fullmatch(x, p) for x in patterns)}
    comps, _ = closure(doc, keep)
    out = {k: v for k, v in doc.items() if k not in ("paths", "components")}
    out["info"] = dict(out.get("info", {}))
    n_ops = sum(1 for i in keep.values() for m in i if m in METHODS)
    out["info"]["description"] = (str(out["info"].get("description", "")) + "\n\nSubset for kg-tools' dependency "
                                  f"corpus ({task}): {len(keep)} of {len(doc['paths'])} paths, {n_ops} "
                                  f"operations kept (see benchmarks/data/deps/make/{task}_build.py).").strip()
    out["paths"] = keep
    out["components"] = comps
    return out


def tag_paths(doc: dict, keep) -> list[str]:
    """Patterns of the paths with an operation whose first tag `keep` accepts (`keep`: a predicate on a tag)."""
    return [
        re.escape(p)
        for p, item in doc["paths"].items()
        if any(m in METHODS and keep((op.get("tags") or [""])[0]) for m, op in item.items())
    ]


def read_spec(path: Path) -> dict:
    """A saved spec, JSON or YAML by its file name."""
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.name.endswith(".json") else yaml.safe_load(text)


def write_spec(doc: dict, out: Path) -> None:
    """The spec as one compact JSON line (at most 1.5 MB), with its operation count printed."""
    text = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), default=str) + "\n"
    assert len(text.encode()) <= 1_500_000, (out.name, len(text.encode()))
    out.write_text(text, encoding="utf-8")
    print(out.stem, sum(1 for i in doc["paths"].values() for m in i if m in METHODS), "ops", len(text), "bytes")


def cut_by_tags(
    specs: dict[str, str], tags: dict[str, set[str]], src: Path, out: Path, task: str, prepare=None, read=None
):
    """Each saved spec `src/specs[key]` (read by `read`, default `read_spec`; after `prepare`, if given) cut to the
    paths of its `tags[key]` (whole when it has none) and written to `out/<key>.json`."""
    for key, name in specs.items():
        doc = (read or read_spec)(src / name)
        if prepare is not None:
            doc = prepare(doc)
        if key in tags:
            keep = tags[key]
            cut = _cut_swagger2(doc, keep, task) if doc.get("swagger") else subset(doc, tag_paths(doc, keep.__contains__), task)
            doc = _by_subset_script(cut, task)
        write_spec(doc, out / f"{key}.json")


SWAGGER2 = ("definitions", "parameters", "responses")


def _cut_swagger2(doc: dict, tags: set[str], task: str) -> dict:
    """A Swagger 2.0 spec cut by tag: its top-level definitions, parameters and responses moved under `components`
    (and their references with them) for `subset`, and moved back."""
    text = json.dumps(doc)
    for kind in SWAGGER2:
        text = text.replace(f'"#/{kind}/', f'"#/components/{kind}/')
    moved = json.loads(text)
    moved["components"] = {kind: moved.pop(kind) for kind in SWAGGER2 if kind in moved}
    cut = subset(moved, tag_paths(moved, tags.__contains__), task)
    cut.update(cut.pop("components"))
    text = json.dumps(cut)
    for kind in SWAGGER2:
        text = text.replace(f'"#/components/{kind}/', f'"#/{kind}/')
    return json.loads(text)


def cut_by_paths(name: str, patterns: list[str], src: Path, out: Path, key: str, task: str) -> None:
    """The saved spec `src/name` cut to the paths matching `patterns` (regexes) and written to `out/<key>.json`."""
    write_spec(_by_subset_script(subset(read_spec(src / name), patterns, task), task), out / f"{key}.json")


def _by_subset_script(doc: dict, task: str) -> dict:
    """The cut spec's description names the script that cut it (`<task>_subset.py`, not `<task>_build.py`)."""
    doc["info"]["description"] = doc["info"]["description"].replace(f"{task}_build.py", f"{task}_subset.py")
    return doc
