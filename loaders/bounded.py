"""Bounded reading of untrusted catalog documents: JSON/YAML parsing and OpenAPI `$ref` resolution whose
work and output are limited, so that a few hundred bytes cannot expand into gigabytes.

- `parse_document(text, where)`: JSON, else JSON lines, else YAML, as plain JSON data. Nesting deeper than `MAX_DEPTH`
  is refused (a clear `CatalogError`, never a RecursionError). YAML aliases (`&a` ... `*a`, also in merge
  keys `<<: *a`) may add at most `MAX_EXPANSION_BYTES` to the document (measured as JSON, before anything
  is built: `DocumentTooLargeError`); recursive aliases are refused. YAML timestamps stay strings and
  `!!binary`/`!!set` become strings/lists, so every document is JSON data.
- `RefResolver(document, where).resolve(node)`: local `$ref`s (`#/components/...`) resolved with each
  target resolved once (memoised, shared), cycles cut (the inner occurrence keeps only the target's
  scalars), and the whole output of one resolver (everything it ever returned, as JSON) at most
  `MAX_EXPANSION_BYTES`, nested at most `MAX_DEPTH` levels. Given a `Dangling` record, a local `$ref` whose target
  the document does not hold reads as `{}` (an untyped schema) and is recorded with the place that used it;
  without one it is a `CatalogError`.

Sizes are approximate JSON sizes in characters (a string counts its length plus quotes)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote

import yaml

from kg_tools.errors import CatalogError, DocumentTooLargeError
from kg_tools.tool_spec import MAX_NESTING, nesting_depth

MAX_DEPTH = 2 * MAX_NESTING  # a whole document: a tool inside it nests at most MAX_NESTING levels
MAX_EXPANSION_BYTES = 20 * 1024 * 1024  # what aliases / $refs may add (the default import body limit)
# PyYAML keeps every composed node (with its marks) until the document is built: ~250 bytes each, so a
# 6 MB document of 2-character items cost 740 MB. Real specs have a node per 14-22 bytes (a 3 MB spec:
# ~150,000-200,000 nodes). YAML is refused past 5 MiB before parsing and past 250,000 values while
# composing; JSON, parsed by the json module at a fraction of that cost, has neither limit.
MAX_YAML_CHARS = 5 * 1024 * 1024
MAX_YAML_NODES = 250_000


def too_deep(where: str, limit: int = MAX_DEPTH) -> CatalogError:
    return CatalogError(f"{where}: nested more than {limit} levels deep")


def scalar_size(value: Any) -> int:
    return len(value) + 2 if isinstance(value, str) else len(str(value))


# -- JSON / YAML ------------------------------------------------------------------------------------


def parse_document(
    text: str, where: str, *, max_depth: int = MAX_DEPTH, max_expansion: int = MAX_EXPANSION_BYTES
) -> Any:
    """JSON, else JSON lines (a list of their objects), else YAML (a superset); a clear CatalogError when none
    parses or a bound is crossed."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        try:
            value = json_lines(text, where)
        except RecursionError as exc:
            raise too_deep(where, max_depth) from exc
        if value is None:
            return parse_yaml(text, where, max_depth=max_depth, max_expansion=max_expansion)
    except RecursionError as exc:
        raise too_deep(where, max_depth) from exc
    if nesting_depth(value, max_depth) > max_depth:
        raise too_deep(where, max_depth)
    return value


_DECODER = json.JSONDecoder()
_NOT_SPACE = re.compile(r"\S")


def json_lines(text: str, where: str) -> list | None:
    """Text that starts with a whole JSON object or array and goes on: JSON lines (one object a line, as
    function-calling datasets ship tool lists, whatever the file's extension) as a list of the objects; None when
    it does not start so (YAML, or malformed JSON that YAML reports); else a CatalogError naming the line (a
    malformed value, an array, two values on a line, a value over several lines)."""
    found: list[tuple[Any, int, int]] = []  # (value, first line, last line)
    pos, line = 0, 1
    while next_value := _NOT_SPACE.search(text, pos):
        start = next_value.start()
        line += text.count("\n", pos, start)
        try:
            value, pos = _DECODER.raw_decode(text, start)
        except json.JSONDecodeError as exc:
            if not found:
                return None
            raise CatalogError(
                f"{where}: malformed JSON lines: {exc.msg} at line {exc.lineno}, column {exc.colno}"
            ) from exc
        if not found and not isinstance(value, (dict, list)):
            return None
        found.append((value, line, line + text.count("\n", start, pos)))
        line = found[-1][2]
    if not found:
        return None  # blank text: no JSON lines (YAML reads it as nothing)
    for n, (value, first, last) in enumerate(found):
        problem = (
            f"two JSON values on line {first}"
            if n and found[n - 1][2] == first
            else f"a JSON value over lines {first}-{last}"
            if last > first
            else f"a JSON {type(value).__name__} on line {first}"
            if not isinstance(value, dict)
            else None
        )
        if problem:
            raise CatalogError(
                f"{where}: the text holds several JSON values ({problem}): give one JSON document, "
                "or JSON lines (one object a line)"
            )
    return [value for value, _, _ in found]


def parse_yaml(
    text: str,
    where: str,
    *,
    max_depth: int = MAX_DEPTH,
    max_expansion: int = MAX_EXPANSION_BYTES,
    max_nodes: int = MAX_YAML_NODES,
) -> Any:
    if len(text) > MAX_YAML_CHARS:
        raise DocumentTooLargeError(
            f"{where}: not JSON, and a YAML document of more than {MAX_YAML_CHARS:,} characters is not read "
            f"({len(text):,}; YAML costs far more memory to parse): send it as JSON, or split it"
        )
    loader = None
    try:  # the reader checks every character when the loader is made: a control byte fails there
        loader = BoundedLoader(text, where, max_depth, max_expansion, max_nodes)
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        raise CatalogError(f"{where}: neither JSON nor YAML: {' '.join(str(exc).split())}") from exc
    except RecursionError as exc:  # not expected (composition depth is counted); never a traceback
        raise too_deep(where, max_depth) from exc
    finally:
        if loader is not None:
            loader.dispose()


class BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader with a nesting limit while composing and an alias budget checked on the
    composed node graph (where an alias is the same node object as its anchor) before construction
    (construction itself is what explodes: merge keys `<<: [*a, *a]` copy pairs level by level)."""

    def __init__(self, text: str, where: str, max_depth: int, max_expansion: int, max_nodes: int = MAX_YAML_NODES):
        super().__init__(text)
        self.where, self.max_depth, self.max_expansion, self.max_nodes = where, max_depth, max_expansion, max_nodes
        self._depth = self._nodes = 0

    def fetch_flow_collection_start(self, TokenClass):
        # The scanner keeps a possible simple key per open flow level and rescans them on every token:
        # 3,000 nested '[' cost seconds. Refuse while scanning, before any of that.
        if self.flow_level >= self.max_depth:
            raise too_deep(self.where, self.max_depth)
        super().fetch_flow_collection_start(TokenClass)

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > self.max_depth:
                raise too_deep(self.where, self.max_depth)
            if not self.check_event(yaml.AliasEvent):
                self._nodes += 1
                if self._nodes > self.max_nodes:
                    raise DocumentTooLargeError(
                        f"{self.where}: a YAML document of more than {self.max_nodes:,} values is not read "
                        "(each costs memory while YAML is parsed); send it as JSON, or split it"
                    )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_document(self, node):
        check_node_graph(node, self.where, self.max_depth, self.max_expansion)
        return super().construct_document(node)


def _as_text(loader: BoundedLoader, node):
    return loader.construct_scalar(node)


def _as_list(loader: BoundedLoader, node):
    return (
        list(loader.construct_mapping(node)) if isinstance(node, yaml.MappingNode) else loader.construct_sequence(node)
    )


BoundedLoader.add_constructor("tag:yaml.org,2002:timestamp", _as_text)
BoundedLoader.add_constructor("tag:yaml.org,2002:binary", _as_text)
BoundedLoader.add_constructor("tag:yaml.org,2002:set", _as_list)


def _children(node) -> list:
    if isinstance(node, yaml.SequenceNode):
        return node.value
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _own_size(node) -> int:
    if isinstance(node, yaml.ScalarNode):
        return scalar_size(node.value)
    return 2 + len(node.value) * (2 if isinstance(node, yaml.MappingNode) else 1)  # brackets, commas, colons


def check_node_graph(root, where: str, max_depth: int, max_expansion: int) -> None:
    """Refuse a composed YAML document whose aliases would expand it by more than `max_expansion`
    characters or nest it deeper than `max_depth`, or that refers to itself. One pass over the distinct
    nodes (sizes and heights memoised per node), so a bomb is refused in time linear in its text."""
    distinct = 0
    size: dict[int, int] = {}
    height: dict[int, int] = {}
    open_: set[int] = set()  # started, not finished: the ancestors of the node being looked at
    stack = [(root, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        if finished:
            kids = _children(node)
            size[key] = _own_size(node) + sum(size[id(k)] for k in kids)
            height[key] = 1 + max((height[id(k)] for k in kids), default=0)
            open_.discard(key)
            if height[key] > max_depth:
                raise too_deep(where, max_depth)
            continue
        if key in size:
            continue
        if key in open_:
            raise CatalogError(f"{where}: a YAML alias refers to a node that contains it (a recursive document)")
        open_.add(key)
        distinct += _own_size(node)
        stack.append((node, True))
        stack.extend((k, False) for k in _children(node))
    expanded = size[id(root)]  # exact integers: 9**9 or 10**100 cost nothing
    if expanded > distinct + max_expansion:
        raise DocumentTooLargeError(
            f"{where}: YAML aliases expand the document from about {distinct:,} to more than "
            f"{distinct + max_expansion:,} characters (aliases may add at most {max_expansion:,})"
        )


# -- OpenAPI $ref ------------------------------------------------------------------------------------


class MissingTargetError(CatalogError):
    """A local `$ref` to a part the document does not hold."""


class Dangling:
    """The local `$ref`s that did not resolve, each with the places (operations) that used them, in order;
    `place` is the one being read (None: not recorded, e.g. a second look at an operation already read)."""

    def __init__(self) -> None:
        self.places: dict[str, dict[str, None]] = {}
        self.place: str | None = None

    def add(self, ref: str) -> None:
        used = self.places.setdefault(ref, {})
        if self.place is not None:
            used[self.place] = None


class RefResolver:
    """Resolves local JSON pointers (`#/components/schemas/Pet`), each target once; see the module doc."""

    def __init__(
        self,
        document: Any,
        where: str,
        *,
        max_depth: int = MAX_DEPTH,
        max_expansion: int = MAX_EXPANSION_BYTES,
        dangling: Dangling | None = None,
    ):
        self.document, self.where, self.dangling = document, where, dangling
        self.max_depth, self.max_expansion = max_depth, max_expansion
        self.emitted = 0  # characters of everything resolve() returned so far, as JSON
        # ref -> (value, size, height, the dangling $refs inside it)
        self._memo: dict[str, tuple[Any, int, int, tuple[str, ...]]] = {}
        self._missed: list[dict[str, None]] = []  # the dangling $refs met inside each target being resolved
        self._active: set[str] = set()
        self._deepest = 0

    def pointer(self, ref: Any) -> Any:
        if ref == "#":  # local, but the whole document (a schema that holds itself): not followed
            raise CatalogError(f"{self.where}: $ref '#' is the whole document, not a part of it ('#/...')")
        if not isinstance(ref, str) or not ref.startswith("#/"):
            raise CatalogError(f"{self.where}: only local $refs ('#/...') are supported, got {ref!r}"[:300])
        node: Any = self.document
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part not in node:  # a URI fragment: `%20` for a space (RFC 6901 §6)
                part = unquote(part)
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise MissingTargetError(f"{self.where}: $ref {ref[:200]!r} does not resolve")
        return node

    def dangles(self, node: Any) -> bool:
        """`node` is a `$ref` to a part the document does not hold (read as `{}`), directly or through `$ref`s."""
        ref, seen = node.get("$ref") if isinstance(node, dict) else None, set()
        while self.dangling is not None and isinstance(ref, str) and ref not in seen:
            if ref in self.dangling.places:
                return True
            seen.add(ref)
            target = self.pointer(ref)  # resolved before: it is there
            ref = target.get("$ref") if isinstance(target, dict) else None
        return False

    def _target(self, ref: Any) -> Any:
        """What `ref` points to; `{}` when the document holds nothing there and dangling `$ref`s are recorded."""
        try:
            return self.pointer(ref)
        except MissingTargetError:
            if self.dangling is None:
                raise
            for met in self._missed:
                met[ref] = None
            self.dangling.add(ref)
            return {}

    def deref(self, node: Any) -> Any:
        """Follow `$ref`s at the top of `node` only (no deep resolution), e.g. for a path item."""
        seen: set[str] = set()
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if not isinstance(ref, str):
                self.pointer(ref)  # refused, saying what it is
            if ref in seen:
                break
            seen.add(ref)
            node = self._target(ref)
        return node

    def _emit(self, size: int) -> None:
        self.emitted += size
        if self.emitted > self.max_expansion:
            raise DocumentTooLargeError(
                f"{self.where}: resolving $refs produces more than {self.max_expansion:,} characters "
                "(references fanning out); nothing written"
            )

    def resolve(self, node: Any, depth: int = 0) -> Any:
        if depth > self.max_depth:
            raise too_deep(f"{self.where} (with its $refs resolved)", self.max_depth)
        self._deepest = max(self._deepest, depth)
        if isinstance(node, dict):
            if "$ref" in node:
                return self._reference(node, depth)
            self._emit(2 + 2 * len(node))
            out = {}
            for key, value in node.items():
                self._emit(scalar_size(key))
                out[key] = self.resolve(value, depth + 1)
            return out
        if isinstance(node, list):
            self._emit(2 + len(node))
            out_list = []
            for value in node:
                out_list.append(self.resolve(value, depth + 1))
            return out_list
        self._emit(scalar_size(node))
        return node

    def _reference(self, node: dict, depth: int) -> Any:
        ref = node["$ref"]
        if not isinstance(ref, str):
            self.pointer(ref)  # refused: names what it is
        if ref in self._active:  # a cycle: the target's own scalars only
            target = self.pointer(ref)
            value = (
                {k: v for k, v in target.items() if not isinstance(v, (dict, list))} if isinstance(target, dict) else {}
            )
            self._emit(2 + sum(2 + scalar_size(k) + scalar_size(v) for k, v in value.items()))
        elif ref in self._memo:
            value, size, height, missed = self._memo[ref]
            if depth + height > self.max_depth:
                raise too_deep(f"{self.where} (with its $refs resolved)", self.max_depth)
            self._deepest = max(self._deepest, depth + height)
            self._emit(size)
            for missing in missed:  # the place using the target now uses them too
                self._target(missing)
        else:
            self._missed.append({})
            try:
                target = self._target(ref)
                start, outer_deepest = self.emitted, self._deepest
                self._active.add(ref)
                self._deepest = depth
                value = self.resolve(target, depth)
            finally:
                self._active.discard(ref)
                missed = tuple(self._missed.pop())
            self._memo[ref] = (value, self.emitted - start, self._deepest - depth, missed)
            self._deepest = max(outer_deepest, self._deepest)
        siblings = {k: v for k, v in node.items() if k != "$ref"}  # 3.1: siblings of $ref apply
        if siblings and isinstance(value, dict):
            return {**value, **self.resolve(siblings, depth)}
        return value
