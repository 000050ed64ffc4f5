"""The (:Server) nodes the `server-score` stage blends in, kept per graph version.

Each (:Server) with an embedding (the gateway's upstreams, `eval catalog --servers`) and the tools it
PROVIDES, by (catalog, name) (request.tool_key), read with one query (cypher/server_index.cypher) the first
time a request's search sees a graph version, then kept until the search sees another: a request on an
unchanged graph reads nothing more, and the cosine of the query to a candidate's server is computed here
(numpy) as Neo4j's vector.similarity.cosine computes it, (1 + cos) / 2. A graph with no (:Server) costs
that one small read per version and blends nothing.

**Validity** is the seed cache's (kg_tools/retrieval/seed_cache.py): the version is the read's bookmark
(`Graph.read_plain_versioned`), so any write, a (:Server)'s included, gives the next search a new version.
What is read is kept only when the read saw the version the search saw (no commit in between).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from kg_tools.retrieval.request import tool_key

Key = tuple[str, str]  # request.tool_key: (tool name, catalog)
Read = Callable[[], tuple[list[dict], str]]  # the index query: rows and the graph version it saw


@dataclass(frozen=True)
class Servers:
    """The servers with an embedding of one graph version: unit vectors and each tool's servers."""

    vectors: list[np.ndarray] = field(default_factory=list)  # one unit vector per server
    of_tool: dict[Key, tuple[int, ...]] = field(default_factory=dict)  # a tool's servers (indices into vectors)

    @classmethod
    def of_rows(cls, rows: Iterable[dict]) -> Servers:
        """From cypher/server_index.cypher's rows (name, embedding, tools: [[catalog, name]]); a server
        whose embedding is empty or all zeros (no cosine) is left out."""
        vectors: list[np.ndarray] = []
        of_tool: dict[Key, list[int]] = {}
        for row in rows:
            vector = np.asarray(row["embedding"] or [], dtype=np.float64)
            norm = float(np.linalg.norm(vector))
            if not norm:
                continue
            vectors.append(vector / norm)
            for catalog, name in row["tools"]:
                of_tool.setdefault(tool_key(name, catalog), []).append(len(vectors) - 1)
        return cls(vectors, {key: tuple(ids) for key, ids in of_tool.items()})

    def provided(self, keys: Iterable[Key]) -> list[Key]:
        """The tools among `keys` some server provides."""
        return [key for key in keys if key in self.of_tool]

    def scores(self, keys: Iterable[Key], embedding: list[float]) -> dict[Key, float]:
        """Each tool's best server's similarity to `embedding`, in the vector index's [0, 1] scale
        ((1 + cos) / 2); tools no server provides, and servers of another dimension, are left out."""
        query = np.asarray(embedding, dtype=np.float64)
        norm = float(np.linalg.norm(query))
        if not norm:
            return {}
        query = query / norm
        cosine: dict[int, float] = {}
        out = {}
        for key in keys:
            sims = [
                cosine.setdefault(i, float(self.vectors[i] @ query))
                for i in self.of_tool.get(key, ())
                if self.vectors[i].shape == query.shape
            ]
            if sims:
                out[key] = (1.0 + max(sims)) / 2.0
        return out


class ServerIndex:
    """The Servers of the most recent graph version a request saw. Thread-safe; two requests that miss
    at once both read (the same rows)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: str | None = None
        self._servers = Servers()
        self.reads = 0  # index queries sent (tests)

    def servers(self, version: str | None, read: Read) -> Servers:
        """The servers at `version` (the graph version the request's search saw): kept ones, else read;
        the rows read are kept for `version` when the read saw it too. `version` None: always read."""
        with self._lock:
            if version is not None and version == self._version:
                return self._servers
        rows, seen = read()
        servers = Servers.of_rows(rows)
        with self._lock:
            self.reads += 1
            if version is not None and seen == version:
                self._version, self._servers = version, servers
        return servers
