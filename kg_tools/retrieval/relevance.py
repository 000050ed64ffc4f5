"""Inferred dependencies the request is not about: listed last (fifteenth session, docs/dependencies.md).

A seed's sure dependencies go right after it, before the next seed: a lookup the action needs ("close the
ticket about X" needs the ticket search) comes in at the second place. When the request's tools are
independent ("open an incident and post it on discord"), or there is one, every such place pushes the next
seed, a tool the search found, further down. What tells the two apart, generically: the lookups a request
needs are about the request's resources, so their tool text is close to the query, nearly as close as the
next candidate of the search; a dependency chained in by an optional parameter the request never thinks of
(a post's `categories`, `tags` and `featured_media`) is far from it.

**Rule**: an inferred dependency of a seed whose cosine to the query is below `ratio` x the next
candidate's cosine (the next seed's; after the last seed, the first tool the fill would list), and that fills
only optional parameters of the tool it serves (the seed or another dependency), is listed last, after the fill,
with what is reached through it: not dropped, in the K tools only when K leaves room. Catalog edges are never
moved; nor are the dependencies of HTTP operations, which have kg_tools.retrieval.needed's rules (on the OpenAPI
dev rows the cosine cost 0.01-0.03 mAP@10). A required parameter's provider is kept (before the fill; far below
the next seed it goes after that seed: OrderAndTruncate._after_next_seed) however far: "decline the
invite" needs the event search though its text is far from the query (cosine 0.02), and ToolLinkOS's chains
of required inputs are far from their queries too (grtf_inferred 0.781 -> 0.609 when every far dependency reached
through another one was moved). Nor is
a :Core utility (date, location, user: far from every query, and what fills ToolLinkOS's optional inputs; 0.781
-> 0.743 when moved). Setting `deps_query_relevance` (KG_TOOLS_DEPS_QUERY_RELEVANCE; 0: off).

The cosines are the query's embedding against the tools' stored embeddings (the vector index's own vectors),
read with one query per request for the tools not yet known (cypher/tool_vectors.cypher) and kept per graph
version (`ToolVectors`, bounded).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable

import numpy as np

from kg_tools.retrieval.needed import only_optional, parameter_names
from kg_tools.retrieval.request import tool_key

Key = tuple[str, str]  # request.tool_key: (tool name, catalog)
Read = Callable[[list[dict]], list[dict]]  # cypher/tool_vectors.cypher: [{name, catalog}] -> rows


class ToolVectors:
    """Unit vectors of tools by (name, catalog) for one graph version at a time, at most `size` of them
    (least recently used out first). A new version empties it: a reload may have changed a vector."""

    def __init__(self, size: int = 20000):
        self.size = size
        self._version: str | None = None
        self._vectors: OrderedDict[Key, np.ndarray | None] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, version: str | None, keys: Iterable[Key], read: Read) -> dict[Key, np.ndarray]:
        """The vectors of `keys` (tools without an embedding left out), reading the unknown ones at once."""
        keys = list(dict.fromkeys(keys))
        with self._lock:
            if version is None or version != self._version:
                self._vectors.clear()
                self._version = version
            missing = [k for k in keys if k not in self._vectors]
        read_now: dict[Key, np.ndarray | None] = {k: None for k in missing}
        if missing:
            for row in read([{"name": name, "catalog": catalog} for name, catalog in missing]):
                read_now[tool_key(row["name"], row.get("catalog"))] = _unit(row.get("embedding"))
        with self._lock:
            if version is not None and version == self._version:
                for key, vector in read_now.items():
                    self._vectors[key] = vector
                    self._vectors.move_to_end(key)
                while len(self._vectors) > self.size:
                    self._vectors.popitem(last=False)
            known = {k: self._vectors.get(k) for k in keys if k not in read_now}
        out = known | read_now
        return {k: v for k, v in out.items() if v is not None}


def _unit(embedding) -> np.ndarray | None:
    """The embedding scaled to length one; None for none, a zero vector or one holding NaN or infinity (no cosine:
    NaN compares below no bar, and every dependency would move)."""
    vector = np.asarray(embedding or [], dtype=np.float64)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm and math.isfinite(norm) else None


def cosines(query: list[float], vectors: dict[Key, np.ndarray]) -> dict[Key, float]:
    """Each vector's cosine to the query's embedding (vectors of another dimension left out)."""
    q = _unit(query)
    if q is None:
        return {}
    return {k: float(v @ q) for k, v in vectors.items() if v.shape == q.shape}


def unrelated(
    seed: str,
    seed_spec: str | dict | None,
    deps: list[dict],
    reference: float | None,
    cos: dict[Key, float],
    ratio: float,
) -> set[str]:
    """The names of a seed's `deps` (depth-first) listed last: an inferred one whose cosine to the query is below
    ratio x `reference` (the next candidate's), that fills only optional parameters of the tool it serves (the
    seed or another dependency) and is not a :Core utility, and every one reached through a moved one. Nothing
    without a reference or a cosine."""
    if reference is None or ratio <= 0:
        return set()
    bar = ratio * max(reference, 0.0)
    specs = {seed: seed_spec} | {d["name"]: d.get("spec") for d in deps}
    moved: set[str] = set()
    for d in deps:
        via = d.get("via") or {}
        source = str(via.get("from"))
        if source in moved:
            moved.add(d["name"])
            continue
        c = cos.get(tool_key(d["name"], d.get("catalog")))
        if not via.get("inferred") or c is None or c >= bar or d.get("func_type") == "core":
            continue
        if _optional_edge(via, specs.get(source)):
            moved.add(d["name"])
    return moved


def _optional_edge(via: dict, spec: str | dict | None) -> bool:
    """The edge fills only parameters its dependent tool does not require (`items[].id` of `items`)."""
    return only_optional(parameter_names(via), spec)
