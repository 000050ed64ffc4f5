"""Inferred dependencies by what the request says: those it likely does not need are listed last.

An inferred edge can be right (the producer does return the value) and still not be what this request
walks through: Box's folder listing returns file ids, but "roll contract.docx back" finds the file by
search. Two generic signals, read from the expansion rows and the query alone (catalog edges are never
moved; docs/dependencies.md, "sixth session: dependencies a request needs"):

1. **An optional filter of a dependency**: a dependency reached through a parameter that its dependent
   tool (itself a dependency, not the seed) does not require. Search's optional `owner_user_ids` is
   fillable by a user listing, but the search runs without it.
2. **A second provider that names neither the value nor the request**: of the inferred providers of one
   parameter, one that is not the most confident whose name words share nothing with the parameter's
   resource words ("folders" for `file_id` or `item.id`) nor with the query's words.

OrderAndTruncate lists them (and what was reached through them) last, after the k seeds, their other
dependencies and the fill: not dropped, but in the K returned tools only when K leaves room. The other way
(`said_first`): a doubtful dependency of the seed whose parameter names what the query says is listed
with the sure ones. Setting `deps_by_request` (KG_TOOLS_DEPS_BY_REQUEST), on by default.
"""

from __future__ import annotations

import json
from functools import lru_cache

from kg_tools.retrieval.ordering import READ_VERBS, STOP_WORDS, WRITE_VERBS, name_words, query_words

# Words of identifiers, generic nouns and name glue that say nothing about which resource a name is about
# (fixed list, not tuned: "item.id" wants an id of any item).
ID_WORDS = frozenset(
    "id ids gid gids uuid uid name names for by of item items object objects resource resources entity".split()
)


def unneeded(seed: str, seed_spec: str | dict | None, deps: list[dict], query: str) -> set[str]:
    """The names of a seed's inferred dependencies the request likely does not need (rules 1 and 2)."""
    specs = {seed: seed_spec} | {d["name"]: d.get("spec") for d in deps}
    best: dict[tuple[str, str], float] = {}  # (dependent tool, parameter) -> its most confident inferred provider
    for d in deps:
        via = d.get("via") or {}
        if via.get("inferred") and via.get("confidence") is not None:
            for p in _parameter_names(via):
                key = (str(via.get("from")), p)
                best[key] = max(best.get(key, 0.0), float(via["confidence"]))
    said = query_words(query)
    out: set[str] = set()
    for d in deps:
        via = d.get("via") or {}
        if not via.get("inferred") or not str(via.get("type", "")).startswith("PARAMETER_"):
            continue
        source, names = str(via.get("from")), _parameter_names(via)
        if not names:
            continue
        if only_optional(names, specs.get(source)) and source != seed:
            out.add(d["name"])
        elif _second_unnamed(d["name"], via, names, best, said):
            out.add(d["name"])
    return out


def _second_unnamed(name: str, via: dict, names: set[str], best: dict[tuple[str, str], float], said: set[str]) -> bool:
    """Rule 2: not the most confident provider of its parameter, and its name words share nothing with the
    parameter's resource words nor with the query's words."""
    confidence = float(via["confidence"]) if via.get("confidence") is not None else 1.0
    if all(confidence >= best.get((str(via.get("from")), p), 0.0) for p in names):
        return False
    own = resource_words(name)
    wanted = set().union(*(resource_words(p) for p in names))
    return bool(own) and not (own & wanted or own & said)


def _said(names: set[str], said: set[str]) -> bool:
    """The query says a resource word of the parameters."""
    return bool(set().union(*(resource_words(p) for p in names)) & said) if names else False


@lru_cache(maxsize=8192)
def resource_words(name: str) -> frozenset[str]:
    """A tool's or parameter's name words without verbs, identifier words and glue, each also in its
    singular ("get_folders_id_items" -> folders, folder, items, item)."""
    words = {w for w in name_words(name) if w not in ID_WORDS | STOP_WORDS | READ_VERBS | WRITE_VERBS}
    return frozenset(words | {w[:-1] for w in words if w.endswith("s") and len(w) > 3})


def _parameter_names(via: dict) -> set[str]:
    return parameter_names(via)


def parameter_names(via: dict) -> set[str]:
    """The parameters an edge fills (`parameter_name`, comma-separated; nested ones dotted: `items[].id`)."""
    return {p.strip() for p in str(via.get("parameter_name") or "").split(",") if p.strip()}


def top_parameter(name: str) -> str:
    """The tool's own parameter a filled name lies in: `items[].id`, `items.id` and `items[]` -> `items`."""
    return name.split(".")[0].split("[")[0]


def only_optional(names: set[str], spec: str | dict | None) -> bool:
    """Every one of the filled parameter `names` lies in a parameter the tool marks as not required (and there
    is one): the one reading of "an optional edge" that needed.py, relevance.py and the order stage share."""
    optional = optional_parameters(spec)
    return bool(names) and all(top_parameter(p) in optional for p in names)


def optional_parameters(spec: str | dict | None) -> frozenset[str]:
    """The names of the parameters a stored spec marks as not required (`required: false`)."""
    if not spec:
        return frozenset()
    return _optional_of(spec) if isinstance(spec, str) else _optional_in(spec)


@lru_cache(maxsize=8192)
def _optional_of(text: str) -> frozenset[str]:
    try:
        spec = json.loads(text)
    except ValueError:
        return frozenset()
    return _optional_in(spec) if isinstance(spec, dict) else frozenset()


def _optional_in(spec: dict) -> frozenset[str]:
    return frozenset(
        p["name"]
        for p in spec.get("parameters") or []
        if isinstance(p, dict) and isinstance(p.get("name"), str) and p.get("required") is False
    )


def split_unneeded(
    sure: list[dict], doubtful: list[dict], names: set[str]
) -> tuple[list[dict], list[dict], list[dict]]:
    """A seed's (sure, doubtful) dependencies (ordering.by_confidence) as (sure, doubtful, unneeded): the sure
    ones named in `names` whose edge is inferred, and what is reached through them (sure or doubtful), are
    unneeded. Catalog edges stay where they are."""
    moved: set[str] = set()
    for d in sure + doubtful:  # depth-first order within each list; a doubtful one's `via.from` comes first
        via = d.get("via") or {}
        if via.get("from") in moved or (d in sure and via.get("inferred") and d["name"] in names):
            moved.add(d["name"])
    return (
        [d for d in sure if d["name"] not in moved],
        [d for d in doubtful if d["name"] not in moved],
        [d for d in sure + doubtful if d["name"] in moved],
    )


def said_first(seed: str, sure: list[dict], doubtful: list[dict], query: str) -> tuple[list[dict], list[dict]]:
    """The other way: a doubtful inferred dependency of the seed itself whose parameter names a resource
    the query says (`podName` in "the logs of the pod that failed") is listed with the sure ones, after them."""
    said = query_words(query)
    up = []
    for d in doubtful:
        via = d.get("via") or {}
        names = _parameter_names(via)
        if via.get("from") == seed and via.get("inferred") and _said(names, said):
            up.append(d)
    return sure + up, [d for d in doubtful if d not in up]


def http_operation(spec: str | dict | None) -> bool:
    """The tool is an HTTP operation (its stored spec has `http`: OpenAPI). The rules apply to HTTP seeds only:
    an HTTP operation's optional parameters are filters and fields a request may leave out; on ToolLinkOS
    (function tools, no `http`) the rules cost dev grtf_inferred 0.828 -> about 0.79 (docs/dependencies.md)."""
    if isinstance(spec, str):
        return '"http"' in spec and bool(_http_of(spec))
    return bool(spec and spec.get("http"))


@lru_cache(maxsize=8192)
def _http_of(text: str) -> bool:
    try:
        spec = json.loads(text)
    except ValueError:
        return False
    return isinstance(spec, dict) and bool(spec.get("http"))
