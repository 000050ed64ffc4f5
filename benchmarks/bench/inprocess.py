"""In-process Graph RAG-Tool Fusion over the same data (numpy matrix + dicts): the speed baseline.

Same ordering as cypher/expand.cypher: exact cosine top-k seeds (score desc, then name), then for
each seed the dependency paths up to `depth` edges in depth-first order of their listing order
(`ord`), no tool visited twice on a path (simple paths), first occurrence of each tool wins, the seed itself
excluded, at most `d_limit` per seed; then seed 1, its dependencies, seed 2, ... unique, cut to K.
(MERGED_INTO canonicalisation is not modelled: the benchmark graph has no merged tools.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kg_tools.cypher import query
from kg_tools.graph import Graph


@dataclass
class InProcessGRTF:
    names: list[str]
    matrix: np.ndarray  # (tools, dim), rows L2-normalised
    out: dict[str, list[tuple[int, str]]]  # source -> [(edge id, target)] sorted by ord

    @classmethod
    def from_graph(cls, graph: Graph) -> InProcessGRTF:
        rows = graph.read(query("tool_embeddings"), names=None)
        names = [r["name"] for r in rows]
        matrix = np.asarray([r["embedding"] for r in rows], dtype=np.float32)
        matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
        edges = sorted(graph.read(query("dependency_edges")), key=lambda r: (r["source"], r["ord"]))
        out: dict[str, list[tuple[int, str]]] = {}
        for i, e in enumerate(edges):
            out.setdefault(e["source"], []).append((i, e["target"]))
        return cls(names, matrix, out)

    def seeds(self, vector: np.ndarray, k: int) -> list[str]:
        scores = self.matrix @ vector
        top = np.argpartition(-scores, min(k, len(scores) - 1))[: k + 8]  # a margin for ties at the cut
        ranked = sorted(top, key=lambda i: (-float(scores[i]), self.names[i]))
        return [self.names[i] for i in ranked[:k]]

    def dependencies(self, seed: str, depth: int, d_limit: int) -> list[str]:
        found: list[str] = []
        seen = {seed}
        on_path = {seed}

        def walk(node: str, remaining: int) -> bool:  # True = d_limit reached, stop
            for _edge_id, target in self.out.get(node, ()):
                if target in on_path:
                    continue
                if target not in seen:
                    seen.add(target)
                    found.append(target)
                    if len(found) >= d_limit:
                        return True
                if remaining > 1:
                    on_path.add(target)
                    stop = walk(target, remaining - 1)
                    on_path.discard(target)
                    if stop:
                        return True
            return False

        if depth > 0:
            walk(seed, depth)
        return found

    def retrieve(
        self, vector: np.ndarray, k: int = 3, K: int = 10, depth: int = 5, d_limit: int | None = None
    ) -> list[str]:
        result: list[str] = []
        for seed in self.seeds(vector, k):
            for name in [seed, *self.dependencies(seed, depth, d_limit or K)]:
                if name not in result:
                    result.append(name)
        return result[:K]
