"""Issue 19 item 5: results for `catalog: X` are exactly those of X alone. A 30-tool catalog is
searched alone, then beside a 10,000-tool catalog whose (synthetic) embeddings crowd the same
region of the vector space: the answers must not change (real Neo4j)."""

import numpy as np
import pytest

from benchmarks.bench import synthetic
from kg_tools.catalog_store import delete_catalog
from kg_tools.ingest import load_catalog
from kg_tools.retrieval import queries
from kg_tools.retrieval.pipeline import Pipeline
from kg_tools.retrieval.request import RetrievalRequest
from kg_tools.tool_spec import tool_document, validate_catalog

SMALL, BIG = "small", "crowd"
N_BIG = 10_000


class CrowdingEmbedder:
    """Every text gets a noisy copy of one of the given vectors (the small catalog's): the big
    catalog sits right where the small catalog's queries land."""

    backend = "fake (crowding)"

    def __init__(self, real, anchors: np.ndarray, seed: int = 3, noise: float = 0.15):
        self.name, self.dimension, self.anchors = real.name, real.dimension, anchors
        self.rng = np.random.default_rng(seed)
        self.noise = noise

    def embed(self, texts, show_progress: bool = False, use_cache: bool = True) -> np.ndarray:
        picks = self.anchors[self.rng.integers(0, len(self.anchors), len(texts))]
        noise = self.rng.normal(size=picks.shape).astype(np.float32)
        v = picks + self.noise * noise / np.linalg.norm(noise, axis=1, keepdims=True)
        return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


REQUESTS = [
    {},  # the default request
    {"mode": "vector", "k": 10, "depth": 0, "rerank": "none"},
    {"mode": "vector", "k": 50, "depth": 0, "rerank": "none", "K": 50},
    {"mode": "hybrid", "k": 5},
]


def _answers(pipeline, texts):
    return [
        [pipeline.retrieve(RetrievalRequest(query=t, catalog=SMALL, **extra)).names for extra in REQUESTS]
        for t in texts
    ]


@pytest.mark.integration
def test_a_small_catalog_beside_a_large_one_answers_as_alone(empty_graph, embedder, settings):
    small = synthetic.generate(30, seed=7)
    texts = synthetic.queries(small, 12, seed=8)
    load_catalog(empty_graph, embedder, small, SMALL, log=lambda *_: None)
    pipeline = Pipeline(empty_graph, embedder, settings)
    alone = _answers(pipeline, texts)
    assert all(len(a[2]) == 30 for a in alone)  # k = 50 over 30 tools: every tool, in score order

    anchors = embedder.embed([tool_document(s) for s in validate_catalog(small).specs])
    big = synthetic.generate(N_BIG, seed=9, taken={t["name"] for t in small})
    load_catalog(empty_graph, CrowdingEmbedder(embedder, anchors), big, BIG, log=lambda *_: None)
    # the crowd really crowds: the whole graph's 50 nearest hold (almost) none of the small catalog
    nearest = empty_graph.read(
        "CALL db.index.vector.queryNodes('tool_embedding', 50, $e) YIELD node "
        "RETURN count(CASE WHEN node.catalog = $c THEN 1 END) AS n",
        e=embedder.embed_query(texts[0]),
        c=SMALL,
    )[0]["n"]
    assert nearest < 10
    beside = _answers(Pipeline(empty_graph, embedder, settings), texts)
    for text, a, b in zip(texts, alone, beside):
        assert b[:3] == a[:3], text  # default, vector top-10, vector top-50: identical
        assert set(b[3]) <= {t["name"] for t in small} and len(b[3]) == len(a[3]), text  # hybrid: only the catalog's

    # the large catalog is searched through the widened index pool (above EXACT_SCAN_MAX), and
    # gets its k seeds from its own tools
    assert N_BIG > queries.EXACT_SCAN_MAX
    names = {t["name"] for t in big}
    hits = pipeline.retrieve(
        RetrievalRequest(query=texts[0], catalog=BIG, mode="vector", k=10, depth=0, rerank="none")
    ).names
    assert len(hits) == 10 and set(hits) <= names
    # ... with bounded work: the catalog is counted only up to EXACT_SCAN_MAX + 1 (the first pool holds
    # enough of its tools) and the exact scan's index seek does not run (it read all 10,000 before)
    search = queries.search_params("vector", k=10, embedding=embedder.embed_query(texts[0]), catalog=BIG)
    seeks = index_seek_rows(empty_graph, *queries.search_seeds("vector", search))
    assert 0 < seeks <= queries.EXACT_SCAN_MAX + 1, seeks
    # the second, widened pool: the small catalog counted as "large" (exact_scan_max 10) while the
    # crowd fills the first pool finds the same tools as the exact scan
    for text in texts[:4]:
        search = queries.search_params("vector", k=10, embedding=embedder.embed_query(text), catalog=SMALL)
        scanned = empty_graph.read_plain(*queries.search_seeds("vector", search))[0]["seeds"]
        pooled = empty_graph.read_plain(*queries.search_seeds("vector", {**search, "exact_scan_max": 10}))[0]["seeds"]
        assert [r["name"] for r in pooled] == [r["name"] for r in scanned], text
    assert delete_catalog(empty_graph, BIG)["tools"] == N_BIG


def index_seek_rows(graph, cypher: str, params: dict) -> int:
    """Rows produced by the node index seeks of one query (PROFILE)."""
    with graph.session("READ") as session:
        plan = session.run("PROFILE " + cypher, params).consume().profile
    todo, rows = [plan], 0
    while todo:
        op = todo.pop()
        if op["operatorType"].startswith("NodeIndexSeek"):
            rows += op.get("rows", 0)
        todo += op.get("children", [])
    return rows
