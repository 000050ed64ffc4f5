"""Inferred dependencies far from the query are listed last (kg_tools/retrieval/relevance.py), and where
OrderAndTruncate lists them: over a stub graph of tool vectors that counts its reads, no database. The query
over real tools: tests/integration/test_relevance.py."""

from __future__ import annotations

import json
import math

from kg_tools.retrieval import relevance
from kg_tools.retrieval.context import Candidate, PipelineEnv, RetrievalContext
from kg_tools.retrieval.request import RetrievalRequest
from kg_tools.retrieval.stages.order import OrderAndTruncate
from kg_tools.settings import Settings


def _vec(cos: float) -> list[float]:
    """A 2-d vector whose cosine to the query [1, 0] is `cos` (scaled: the stored vectors need not be unit)."""
    return [2 * cos, 2 * math.sqrt(1 - cos * cos)]


# the query's cosine to each tool: the action's lookup is near the query, the chained-in listing far from it
COS = {"create_post": 0.6, "list_posts": 0.45, "list_tags": 0.05, "list_tag_groups": 0.5, "upload_media": 0.5}
COS |= {"list_media": 0.1, "spare": 0.3, "catalog_dep": 0.0, "list_authors": 0.05, "list_categories": 0.3}
# the seed requires its parent post; its tags and categories are optional
POST = json.dumps(
    {
        "name": "create_post",
        "parameters": [
            {"name": "parent", "required": True},
            {"name": "tags", "required": False},
            {"name": "categories", "required": False},
        ],
    }
)


class Graph:
    """read_plain over the tools' vectors; counts the reads and the tools asked for."""

    def __init__(self, cos: dict[str, float]):
        self.cos, self.reads = cos, 0
        self.asked: list[str] = []

    def read_plain(self, cypher, params=None):
        assert "t.embedding" in cypher
        self.reads += 1
        self.asked += [t["name"] for t in params["tools"]]
        return [
            {"name": t["name"], "catalog": t["catalog"], "embedding": _vec(self.cos[t["name"]])}
            for t in params["tools"]
            if t["name"] in self.cos
        ]


class Embedder:
    name = "stub"

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0]


def _dep(name, source, parameter="id", confidence=0.9, inferred=True):
    via = {"from": source, "type": "PARAMETER_DIRECTLY_DEPENDS_ON", "parameter_name": parameter}
    return {"name": name, "catalog": "c", "via": via | {"inferred": inferred, "confidence": confidence}}


def _candidates() -> list[Candidate]:
    deps = [
        _dep("list_posts", "create_post", "parent"),  # near the query: right after its seed
        _dep("list_authors", "list_posts", "author"),  # far, but a required input of list_posts (no spec): kept
        _dep("list_tags", "create_post", "tags"),  # far, through an optional parameter of the seed: last
        _dep("list_tag_groups", "list_tags", "group"),  # reached through a moved one: last as well
        _dep("list_categories", "create_post", "categories"),  # optional, 0.3: kept at ratio 0.3, moved at 0.95
        _dep("catalog_dep", "create_post", "x", inferred=False),  # a catalog edge stays
    ]
    return [
        Candidate("create_post", 0.9, spec=POST, deps=deps, catalog="c"),
        Candidate("upload_media", 0.8, deps=[_dep("list_media", "upload_media", "post")], catalog="c"),
        Candidate("spare", 0.5, deps=[], catalog="c"),
    ]


def _order(ratio: float, graph: Graph, version: str | None = "v1", env: PipelineEnv | None = None, **next_seed):
    # what goes after the next seed: off unless asked (test_order_next_seed.py)
    next_seed = {"deps_before_next_seed": 0, "deps_far_after_next_seed": 0.0} | next_seed
    env = env or PipelineEnv(graph, Embedder(), Settings(deps_query_relevance=ratio, **next_seed))  # type: ignore[arg-type]
    ctx = RetrievalContext(RetrievalRequest(query="q", K=10, k=2, supplied_last=False), graph_version=version)
    ctx.candidates = _candidates()
    OrderAndTruncate(env).run(ctx)
    return [t.name for t in ctx.tools], env


def test_dependencies_far_from_the_query_are_listed_last_after_the_fill():
    names, _ = _order(0.3, Graph(COS))
    # the next candidate's cosine is 0.5 (upload_media), then 0.3 (spare): the bars are 0.15 and 0.09
    assert names == [
        "create_post",
        "list_posts",
        "list_authors",  # 0.05, but it fills a required parameter: kept
        "list_categories",  # optional, 0.3 >= 0.15
        "catalog_dep",
        "upload_media",
        "list_media",
        "spare",
        "list_tags",  # optional and 0.05 < 0.15: last, with what is reached through it
        "list_tag_groups",
    ]


def test_a_higher_ratio_moves_more_and_zero_switches_it_off_without_a_read():
    names, _ = _order(0.95, Graph(COS))  # bars 0.475 and 0.285
    # only optional parameters' providers move; list_posts (0.45) and list_media (0.1) fill required ones
    assert names == ["create_post", "list_posts", "list_authors", "catalog_dep", "upload_media", "list_media"] + [
        "spare",
        "list_tags",
        "list_tag_groups",
        "list_categories",
    ]
    graph = Graph(COS)
    names, _ = _order(0.0, graph)
    assert names[:6] == ["create_post", "list_posts", "list_authors", "list_tags", "list_tag_groups", "list_categories"]
    assert graph.reads == 0


def test_vectors_are_read_once_per_graph_version():
    graph = Graph(COS)
    _, env = _order(0.3, graph)
    assert graph.reads == 1 and "spare" in graph.asked and "catalog_dep" not in graph.asked
    _order(0.3, graph, env=env)
    assert graph.reads == 1  # all known at v1
    _order(0.3, graph, version="v2", env=env)
    assert graph.reads == 2  # a new version: read again


def test_no_inferred_dependency_no_read():
    graph = Graph(COS)
    env = PipelineEnv(graph, Embedder(), Settings())  # type: ignore[arg-type]
    ctx = RetrievalContext(RetrievalRequest(query="q", K=10, k=2, supplied_last=False))
    ctx.candidates = [Candidate("a", 0.9, deps=[_dep("b", "a", inferred=False)]), Candidate("c", 0.8, deps=[])]
    OrderAndTruncate(env).run(ctx)
    assert [t.name for t in ctx.tools] == ["a", "b", "c"] and graph.reads == 0


def test_unrelated_needs_a_reference_and_a_cosine():
    deps = [_dep("x", "seed", "a"), _dep("y", "seed", "a"), _dep("z", "seed", "b")]
    spec = {"name": "seed", "parameters": [{"name": "a", "required": False}, {"name": "b", "required": True}]}
    cos = {("x", "c"): 0.01, ("z", "c"): 0.01}
    assert relevance.unrelated("seed", spec, deps, 0.5, cos, 0.3) == {"x"}  # y: no vector; z: a required parameter
    assert relevance.unrelated("seed", spec, deps, None, cos, 0.3) == set()


def test_tool_vectors_are_bounded_and_leave_out_tools_without_an_embedding():
    vectors = relevance.ToolVectors(size=2)
    rows = {"a": [1.0, 0.0], "b": [0.0, 3.0], "z": None}
    read = lambda tools: [{"name": t["name"], "catalog": t["catalog"], "embedding": rows[t["name"]]} for t in tools]  # noqa: E731
    got = vectors.get("v1", [("a", "c"), ("b", "c"), ("z", "c")], read)
    assert set(got) == {("a", "c"), ("b", "c")} and list(got[("b", "c")]) == [0.0, 1.0]
    assert len(vectors._vectors) == 2  # the oldest (a) out
    assert relevance.cosines([2.0, 0.0], got) == {("a", "c"): 1.0, ("b", "c"): 0.0}


def test_http_seeds_keep_their_order():
    # an HTTP operation's dependencies have kg_tools.retrieval.needed's rules instead: no read, nothing moved
    graph = Graph(COS)
    env = PipelineEnv(graph, Embedder(), Settings(deps_by_request=False))  # type: ignore[arg-type]
    ctx = RetrievalContext(RetrievalRequest(query="q", K=10, k=2, supplied_last=False), graph_version="v1")
    http = '{"name": "create_post", "http": {"method": "POST", "path": "/posts"}}'
    ctx.candidates = [Candidate("create_post", 0.9, spec=http, deps=_candidates()[0].deps, catalog="c")]
    ctx.candidates += _candidates()[2:]
    OrderAndTruncate(env).run(ctx)
    assert [t.name for t in ctx.tools][:5] == [
        "create_post",
        "list_posts",
        "list_authors",
        "list_tags",
        "list_tag_groups",
    ]
    assert graph.reads == 0


def test_core_utilities_stay():
    # a :Core utility (today's date, the user's location) fills optional inputs far from any query: never moved
    deps = [_dep("get_date", "seed", "a") | {"func_type": "core"}, _dep("x", "seed", "a")]
    spec = {"name": "seed", "parameters": [{"name": "a", "required": False}]}
    cos = {("get_date", "c"): 0.0, ("x", "c"): 0.0}
    assert relevance.unrelated("seed", spec, deps, 0.5, cos, 0.5) == {"x"}


def test_a_vector_holding_nan_or_infinity_has_no_cosine():
    """A NaN cosine is below no bar: a broken stored vector (or query) would move every optional dependency."""
    vectors = relevance.ToolVectors()
    rows = {"a": [math.nan, 1.0], "b": [math.inf, 0.0], "c": [0.0, 0.0], "d": [1.0, 0.0]}
    read = lambda tools: [{"name": t["name"], "catalog": t["catalog"], "embedding": rows[t["name"]]} for t in tools]  # noqa: E731
    got = vectors.get("v1", [(n, "") for n in rows], read)
    assert set(got) == {("d", "")}
    assert relevance.cosines([math.nan, 0.0], got) == {}
