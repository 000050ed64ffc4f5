"""One optional lookup of a seed before the next seed, the others after it (OrderAndTruncate._after_next_seed,
setting deps_before_next_seed), and lookups far from the query after it (deps_far_after_next_seed): the stub graph
and candidates of test_relevance."""

from __future__ import annotations

from kg_tools.retrieval.context import Candidate, PipelineEnv, RetrievalContext
from kg_tools.retrieval.request import RetrievalRequest
from kg_tools.retrieval.stages.order import OrderAndTruncate
from kg_tools.settings import Settings
from tests.unit.kg_tools.retrieval.test_relevance import COS, POST, Embedder, Graph, _dep, _order


def test_optional_lookups_past_the_first_go_after_the_next_seed():
    # ratio 0.01: relevance.py moves nothing; create_post's required chain (list_posts, then list_authors) and its
    # catalog edge stay; of the rest (list_tags, list_tag_groups, list_categories) the first stays
    names, _ = _order(0.01, Graph(COS), deps_before_next_seed=1)
    assert names == ["create_post", "list_posts", "list_authors", "list_tags", "catalog_dep", "upload_media"] + [
        "list_tag_groups",
        "list_categories",
        "list_media",
        "spare",
    ]
    assert _order(0.01, Graph(COS), deps_before_next_seed=3)[0] == _order(0.01, Graph(COS))[0]  # 3 fit; 0: no limit


def test_nothing_moves_when_the_relevance_rule_is_off():
    graph = Graph(COS)
    names, _ = _order(0.0, graph, deps_before_next_seed=1)
    assert names[:6] == ["create_post", "list_posts", "list_authors", "list_tags", "list_tag_groups", "list_categories"]
    assert graph.reads == 0


def test_core_utilities_and_required_chains_are_not_counted():
    deps = [
        _dep("get_date", "create_post", "tags") | {"func_type": "core"},  # a :Core utility: stays
        _dep("list_posts", "create_post", "parent"),  # required
        _dep("list_tags", "create_post", "tags"),  # the one optional lookup
        _dep("list_categories", "create_post", "categories"),  # the second: after the next seed
    ]
    settings = Settings(deps_query_relevance=0.01, deps_far_after_next_seed=0)
    env = PipelineEnv(Graph(COS | {"get_date": 0.3}), Embedder(), settings)  # type: ignore[arg-type]
    ctx = RetrievalContext(RetrievalRequest(query="q", K=10, k=2, supplied_last=False), graph_version="v1")
    ctx.candidates = [Candidate("create_post", 0.9, spec=POST, deps=deps, catalog="c"), Candidate("spare", 0.5)]
    ctx.candidates[1].catalog = "c"
    OrderAndTruncate(env).run(ctx)
    assert [t.name for t in ctx.tools] == ["create_post", "get_date", "list_posts", "list_tags", "spare"] + [
        "list_categories"
    ]


def test_the_last_seed_keeps_its_dependencies():
    names, _ = _order(0.01, Graph(COS), deps_before_next_seed=1)
    assert names.index("list_media") < names.index("spare")  # upload_media is the last seed: nothing to pass


def test_far_lookups_required_or_not_go_after_the_next_seed():
    # the next seed (upload_media) is at 0.5: the bar is 0.3 x 0.5 = 0.15; list_authors (0.05, a required input of
    # list_posts) and list_tags (0.05, optional) go after it, list_tag_groups (0.5) with list_tags, which it is
    # reached through; list_posts (0.45), list_categories (0.3) and the catalog edge stay; the last seed keeps its own
    names, _ = _order(0.01, Graph(COS), deps_far_after_next_seed=0.3)
    assert names == ["create_post", "list_posts", "list_categories", "catalog_dep", "upload_media"] + [
        "list_authors",
        "list_tags",
        "list_tag_groups",
        "list_media",
        "spare",
    ]
    # with one optional lookup before the next seed: the far ones first, then the optional ones past the first
    names, _ = _order(0.01, Graph(COS), deps_far_after_next_seed=0.3, deps_before_next_seed=1)
    assert names == ["create_post", "list_posts", "catalog_dep", "upload_media", "list_authors", "list_tags"] + [
        "list_tag_groups",
        "list_categories",
        "list_media",
        "spare",
    ]


def test_far_lookups_stay_without_the_relevance_rule_or_with_the_setting_off():
    assert Settings().deps_far_after_next_seed == 0  # off by default
    assert _order(0.0, Graph(COS), deps_far_after_next_seed=0.3)[0] == _order(0.0, Graph(COS))[0]
    assert _order(0.01, Graph(COS), deps_far_after_next_seed=0.0)[0] == _order(0.01, Graph(COS))[0]


def test_a_core_utility_far_from_the_query_stays():
    deps = [_dep("get_date", "create_post", "parent") | {"func_type": "core"}, _dep("list_tags", "create_post", "tags")]
    env = PipelineEnv(
        Graph(COS | {"get_date": 0.0}), Embedder(), Settings(deps_query_relevance=0.01, deps_far_after_next_seed=0.3)
    )  # type: ignore[arg-type]
    ctx = RetrievalContext(RetrievalRequest(query="q", K=10, k=2, supplied_last=False), graph_version="v1")
    ctx.candidates = [Candidate("create_post", 0.9, spec=POST, deps=deps, catalog="c"), Candidate("spare", 0.5)]
    ctx.candidates[1].catalog = "c"
    OrderAndTruncate(env).run(ctx)  # 0.3 x spare's 0.3 = 0.09
    assert [t.name for t in ctx.tools] == ["create_post", "get_date", "spare", "list_tags"]
