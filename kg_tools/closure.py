"""The precomputed dependency closure per tool: the default expansion, read by cypher/expand_closure.cypher.

For every tool, `closure` lists the first CLOSURE_SIZE dependencies in exactly the order of
cypher/expand_paths.cypher with the default options (all four edge types, depth 5, no preference,
nothing dropped): paths from the tool or a tool merged into it, simple, sorted by the listing order
(`ord`; ties broken by `edge_key`) of their edges, each reached tool mapped to its canonical tool, first occurrence wins, the
tool itself left out. `closure_via` holds the element id of the last edge of that first path.

Computed in Python by a depth-first walk that stops after CLOSURE_SIZE finds and does not walk a
tool again unless it is reached with more depth left than before (its tools were all found on the
earlier walk, so the order of first occurrences is unchanged): the work is bounded by the closure
size and depth, not by the number of paths. Maintained in the writing transaction by every write
(`refresh`): a load, PUT and DELETE of a tool, merge apply and undo, deps apply and undo. Those
transactions hold the graph's write lock (kg_tools/write_lock.py), so a closure is computed from the
committed graph plus the transaction's own changes, never from a view a concurrent writer is changing
(docs/concurrency.md).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from kg_tools import write_lock
from kg_tools.cypher import query

V = TypeVar("V")  # what an edge carries as its `via` (an element id here, a row in retrieval)

CLOSURE_SIZE = 32  # requests with d_limit (default K) above this use the traversal
CLOSURE_DEPTH = 5
WRITE_BATCH = 2000


def edge_key(edge: dict, prefer_direct: bool = False) -> tuple:
    """The order of a tool's outgoing edges in a depth-first expansion: indirect ones after direct ones
    when preferred, then the listing order (`ord`), then -- for edges that share an ord, as two
    inference runs or parallel edges may -- target name, type, parameter name and reason, so the order
    is total (cypher/expand_paths_enumerated.cypher sorts by the same key)."""
    kind = edge.get("type") or ""
    penalty = 1 if prefer_direct and "_INDIRECTLY_" in kind else 0
    return penalty, edge["ord"], edge["target"], kind, edge.get("parameter_name") or "", edge.get("reason") or ""


def compute(
    edges: list[dict],
    merged_into: dict[str, str],
    names: Iterable[str],
    depth: int = CLOSURE_DEPTH,
    size: int = CLOSURE_SIZE,
) -> dict[str, tuple[list[str], list[str]]]:
    """name -> (dependency names, via edge ids). `edges`: {source, target, type, ord, parameter_name,
    reason, id} (cypher/closure_edges.cypher)."""
    out: dict[str, list[tuple[tuple, str, str]]] = defaultdict(list)
    for e in edges:
        out[e["source"]].append((edge_key(e), e["target"], e["id"]))
    for targets in out.values():
        targets.sort(key=lambda t: t[0])
    members: dict[str, list[str]] = defaultdict(list)
    for member, canonical in merged_into.items():
        members[canonical].append(member)
    result = {}
    for name in names:
        ordered = first_dependencies(out, merged_into, name, [name, *sorted(members.get(name, ()))], depth, size)
        result[name] = ([d for d, _ in ordered], [v for _, v in ordered])
    return result


def first_dependencies(
    out: Mapping[str, Sequence[tuple[tuple, str, V]]],
    merged_into: dict[str, str],
    name: str,
    sources: list[str],
    depth: int,
    size: int,
) -> list[tuple[str, V]]:
    """The first `size` dependencies of `name` in expansion order, each with the last edge (`via`) of
    its first path: paths from every source (the tool, then the tools merged into it), simple, in
    order of their edge keys; reached tools mapped to their canonical tool; the tool itself left out.
    `out`: tool -> [(edge key, target, via)] sorted by key (kg_tools.retrieval.expansion uses it too)."""
    best: dict[str, tuple[tuple, int, V]] = {}  # canonical dep -> (path key, source index, via)
    for s, source in enumerate(sources):
        for key, raw, via in _first_occurrences(out, source, depth, 2 * size + len(sources)):
            dep = merged_into.get(raw, raw)
            if dep != name and (dep not in best or (key, s) < best[dep][:2]):
                best[dep] = (key, s, via)
    ordered = sorted(best.items(), key=lambda item: item[1][:2])[:size]
    return [(dep, value[2]) for dep, value in ordered]


def _first_occurrences(
    out: Mapping[str, Sequence[tuple[tuple, str, V]]], source: str, depth: int, limit: int
) -> list[tuple[tuple, str, V]]:
    """(path key, tool, via edge id) of each tool's first path from `source`, in depth-first order."""
    found: list[tuple[tuple, str, V]] = []
    seen: set[str] = set()
    walked: dict[str, int] = {}  # tool -> most depth left it was walked with
    on_path = {source}

    def walk(node: str, left: int, key: tuple) -> bool:  # True: limit reached
        for ord_, target, via in out.get(node, ()):
            if target in on_path:
                continue
            path_key = key + (ord_,)
            if target not in seen:
                seen.add(target)
                found.append((path_key, target, via))
                if len(found) >= limit:
                    return True
            if left > 1 and walked.get(target, 0) < left - 1:
                walked[target] = left - 1
                on_path.add(target)
                stop = walk(target, left - 1, path_key)
                on_path.discard(target)
                if stop:
                    return True
        return False

    walk(source, depth, ())
    return found


FULL_REFRESH_ABOVE = 200  # more changed tools than this: recompute every closure (one pass)

Key = tuple[str, str]  # a tool: (catalog, name)
_SEP = "\x00"  # compute() walks opaque string keys: catalog + _SEP + name (neither may hold a NUL)


def _key(catalog: str | None, name: str) -> str:
    return f"{catalog or ''}{_SEP}{name}"


def _name(key: str) -> str:
    return key.split(_SEP, 1)[1]


def read_graph(run) -> tuple[list[dict], dict[str, str]]:
    """Every dependency edge and MERGED_INTO link, keyed by (catalog, name) for `compute`; `run(cypher)`
    returns rows as dicts (a transaction's or the graph's read)."""
    edges = [
        {**e, "source": _key(e["source_catalog"], e["source"]), "target": _key(e["target_catalog"], e["target"])}
        for e in run(query("closure_edges"))
    ]
    merged = {
        _key(r["member_catalog"], r["member"]): _key(r["canonical_catalog"], r["canonical"])
        for r in run(query("closure_merges"))
    }
    return edges, merged


def compute_keys(edges: list[dict], merged: dict[str, str], targets: Iterable[Key]) -> list[dict]:
    """Closure rows {catalog, name, closure (dependency names), via} of the `targets`, from read_graph()."""
    computed = compute(edges, merged, [_key(c, n) for c, n in targets])
    return [
        {"catalog": key.split(_SEP, 1)[0], "name": _name(key), "closure": [_name(d) for d in deps], "via": via}
        for key, (deps, via) in computed.items()
    ]


def affected(tx, names: list[str]) -> list[Key]:
    """The tools whose closure can change when the tools named `names` change (in any catalog): those
    tools, their canonical tools, and every tool whose closure lists one of them. For a DELETE, ask
    before deleting."""
    return [(c, n) for c, n in tx.run(query("closure_affected"), names=list(names)).single()["keys"]]


def refresh(tx, names: Iterable[str] | None = None, *, targets: Iterable[Key] | None = None) -> int:
    """Recompute closures inside the writing transaction `tx`: of `targets` ((catalog, name) pairs); else
    of the tools affected by changes to the tools named `names`; else (or when many changed) of every
    tool. Returns how many. Takes the write lock if the caller did not (the caller should, before its
    first read or write: kg_tools.write_lock.serialized)."""
    write_lock.acquire(tx)
    names = None if names is None else list(names)
    if targets is None and names is not None and len(names) <= FULL_REFRESH_ABOVE:
        targets = affected(tx, names)
    if targets is None:
        targets = [tuple(r["key"]) for r in tx.run(query("closure_all_tools"))]
    targets = list(targets)
    if not targets:
        return 0
    edges, merged = read_graph(lambda cypher: [r.data() for r in tx.run(cypher)])
    rows = compute_keys(edges, merged, targets)
    for i in range(0, len(rows), WRITE_BATCH):
        tx.run(query("closure_write"), rows=rows[i : i + WRITE_BATCH]).consume()
    return len(rows)
