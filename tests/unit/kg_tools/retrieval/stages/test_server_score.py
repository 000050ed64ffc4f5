"""The server-score stage (issue 21 item 3, the default since issue 29): a tool's score draws on its server's
similarity to the query. The blend, and the stage over a stub graph that counts its reads: the servers are
read once per graph version, by (catalog, name), and a graph without servers is answered as before.
The stage over real (:Server) nodes: tests/integration/test_server_score.py."""

from __future__ import annotations

from kg_tools.retrieval.context import Candidate, PipelineEnv, RetrievalContext
from kg_tools.retrieval.request import RetrievalRequest
from kg_tools.retrieval.stages.server_score import ServerScore, blend, blended_by_text
from kg_tools.settings import Settings


def test_blend_mixes_the_server_similarity_in_and_resorts():
    candidates = [Candidate("x", 0.80, catalog="a"), Candidate("x", 0.78, catalog="b"), Candidate("y", 0.70)]
    out = blend(candidates, {("x", "a"): 0.50, ("x", "b"): 0.90}, 0.5)
    assert [c.key for c in out] == [("x", "b"), ("y", ""), ("x", "a")]  # 0.84, 0.70 (no server: kept), 0.65
    assert [c.score for c in out] == [0.84, 0.7, 0.65]
    assert [c.key for c in blend(candidates, {("x", "a"): 0.5}, 0.0)] == [c.key for c in candidates]


class Graph:
    """read_plain_versioned over fixed server rows; counts the reads and says which version it saw."""

    def __init__(self, rows: list[dict], version: str = "v1"):
        self.rows, self.version, self.reads = rows, version, 0

    def read_plain_versioned(self, cypher, params=None):
        assert "(s:Server)" in cypher
        self.reads += 1
        return self.rows, self.version


class Embedder:
    name = "stub"

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0]


def _run(env: PipelineEnv, candidates: list[Candidate], version: str | None, by_default: bool = True):
    ctx = RetrievalContext(request=RetrievalRequest(query="q"), candidates=candidates, graph_version=version)
    stage = ServerScore(env, by_default=by_default)
    stage.run(ctx)
    return ctx, stage


def _candidates() -> list[Candidate]:
    # the same name in two catalogs: only catalog "s"'s tool is the server's
    return [Candidate("search", 0.80, catalog="other"), Candidate("search", 0.78, catalog="s")]


def test_servers_are_read_once_per_graph_version_and_blended_by_catalog_and_name():
    rows = [{"name": "s", "embedding": [2.0, 0.0], "tools": [["s", "search"]]}]
    graph = Graph(rows)
    env = PipelineEnv(graph, Embedder(), Settings())  # type: ignore[arg-type]
    ctx, stage = _run(env, _candidates(), "v1")
    # (1 + cos) / 2 = 1.0 for the server: 0.6 * 0.78 + 0.4 * 1.0 = 0.868 > 0.80
    assert [(c.catalog, c.score) for c in ctx.candidates or []] == [("s", 0.868), ("other", 0.8)]
    assert [(s.name, s.detail) for s in ctx.stages] == [
        ("server-score", "1 of 2 candidates blended with their server's similarity (weight 0.4)")
    ]
    assert stage.timing_key == "server-score"
    _run(env, _candidates(), "v1")
    assert graph.reads == 1  # the same version: from memory
    graph.version = "v2"
    _run(env, _candidates(), "v2")
    _run(env, _candidates(), "v2")
    assert graph.reads == 2  # a new version: read once more
    _run(env, _candidates(), None)
    _run(env, _candidates(), None)
    assert graph.reads == 4  # no version known: read every time


def test_a_read_that_saw_another_version_is_used_but_not_kept():
    graph = Graph([{"name": "s", "embedding": [0.0, 1.0], "tools": [["s", "search"]]}], version="v2")
    env = PipelineEnv(graph, Embedder(), Settings())  # type: ignore[arg-type]
    ctx, _ = _run(env, _candidates(), "v1")  # a commit between the search and the read
    assert ctx.candidates and ctx.candidates[1].score == round(0.6 * 0.78 + 0.4 * 0.5, 6)  # cos 0: 0.5
    _run(env, _candidates(), "v1")
    assert graph.reads == 2


def test_without_servers_the_default_changes_nothing_and_says_nothing():
    env = PipelineEnv(Graph([]), Embedder(), Settings())  # type: ignore[arg-type]
    candidates = _candidates()
    ctx, stage = _run(env, candidates, "v1")
    assert ctx.candidates == candidates and ctx.stages == [] and stage.timing_key == "order"
    named, stage = _run(env, candidates, "v1", by_default=False)  # named in `stages`: it says why
    assert named.candidates == candidates and stage.timing_key == "server-score"
    assert [s.detail for s in named.stages] == ["no candidate has a server with an embedding: scores unchanged"]


def test_servers_without_a_usable_embedding_are_left_out():
    rows = [
        {"name": "zero", "embedding": [0.0, 0.0], "tools": [["s", "search"]]},
        {"name": "3d", "embedding": [1.0, 0.0, 0.0], "tools": [["other", "search"]]},
    ]
    env = PipelineEnv(Graph(rows), Embedder(), Settings())  # type: ignore[arg-type]
    candidates = _candidates()
    ctx, _ = _run(env, candidates, "v1")
    assert ctx.candidates == candidates and ctx.stages == []


def test_a_step_list_is_blended_by_its_own_text_unless_the_request_turns_the_score_off():
    """per-step/steps: each step's list, before its rescoring, by the step's own text's similarity."""
    rows = [{"name": "s", "embedding": [2.0, 0.0], "tools": [["s", "search"]]}]
    env = PipelineEnv(Graph(rows), Embedder(), Settings())  # type: ignore[arg-type]
    ctx = RetrievalContext(request=RetrievalRequest(query="q"), graph_version="v1")
    out = blended_by_text(env, ctx, "step one", _candidates())
    assert [(c.catalog, c.score) for c in out] == [("s", 0.868), ("other", 0.8)]
    assert ctx.embeddings.keys() == {"step one"} and ctx.stages[0].detail.startswith("'step one': 1 of 2")
    off = RetrievalContext(request=RetrievalRequest(query="q", server_score=False), graph_version="v1")
    assert blended_by_text(env, off, "step one", _candidates()) == _candidates() and off.stages == []
