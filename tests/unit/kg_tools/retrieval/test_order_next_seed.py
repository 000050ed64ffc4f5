"""What goes after the next seed rather than before it (OrderAndTruncate._after_next_seed, settings
deps_before_next_seed and deps_next_seed_relevance): the stub graph and candidates of test_relevance."""

from __future__ import annotations

from tests.unit.kg_tools.retrieval.test_relevance import COS, Graph, _order

FAR_LAST = ["spare", "list_tags", "list_tag_groups"]  # the fill, then what relevance.py lists last


def test_at_most_two_inferred_dependencies_before_the_next_seed():
    names, _ = _order(0.3, Graph(COS), deps_before_next_seed=2)
    # create_post keeps list_posts and list_authors (inferred) and its catalog edge; list_categories, the third
    # inferred one, goes after upload_media, before upload_media's own dependency
    assert names == ["create_post", "list_posts", "list_authors", "catalog_dep", "upload_media", "list_categories"] + [
        "list_media",
        *FAR_LAST,
    ]


def test_a_dependency_farther_than_the_next_seed_goes_after_it_required_or_not():
    names, _ = _order(0.3, Graph(COS), deps_next_seed_relevance=0.8)
    # bar 0.8 x 0.5 (upload_media) = 0.4: list_authors (0.05, required) and list_categories (0.3) move;
    # list_posts (0.45) stays, and so does the catalog edge
    assert names == ["create_post", "list_posts", "catalog_dep", "upload_media", "list_authors", "list_categories"] + [
        "list_media",
        *FAR_LAST,
    ]


def test_zero_moves_nothing_not_even_a_negative_cosine():
    before, _ = _order(0.3, Graph(COS))
    assert _order(0.3, Graph(COS | {"list_authors": -0.2}))[0] == before  # a required input's provider
    assert before.index("list_authors") < before.index("upload_media")


def test_nothing_moves_when_the_relevance_rule_is_off():
    graph = Graph(COS)
    names, _ = _order(0.0, graph, deps_before_next_seed=1, deps_next_seed_relevance=0.9)
    assert names[:6] == ["create_post", "list_posts", "list_authors", "list_tags", "list_tag_groups", "list_categories"]
    assert graph.reads == 0


def test_the_last_seed_keeps_its_dependencies():
    # list_media (0.1) fills upload_media's parameter, and upload_media is the last seed: before the fill
    names, _ = _order(0.3, Graph(COS), deps_before_next_seed=1, deps_next_seed_relevance=1.0)
    assert names[:2] == ["create_post", "catalog_dep"]  # every inferred one of create_post after upload_media
    assert names.index("upload_media") < names.index("list_media") < names.index("spare")
