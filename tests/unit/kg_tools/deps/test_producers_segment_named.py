"""A path parameter named by a word no tool of the catalog offers (Revolt's `/channels/{target}`) names an instance of
the resource of the segment before it, unless it is a scope (kg_tools/deps/producers.py `_segment_named`;
docs/dependencies.md, twenty-fifth session: leads from the fresh set just spent). Small made-up specs."""

from __future__ import annotations

from kg_tools.deps.producers import path_scopes, prepare
from tests.support.made_up_ops import PAGE_OF_IDS, path_op, path_tools, wanted


def test_a_target_under_a_collection_wants_its_instance():
    tools = path_tools(
        path_op("list_gizmos", "GET", "/gizmos", output=PAGE_OF_IDS),
        path_op("fetch_gizmo", "GET", "/gizmos/{target}", ["target"]),
        path_op("fetch_gizmo_flags", "GET", "/gizmos/{target}/flags", ["target"]),
    )
    got = wanted(tools)
    for consumer in ("fetch_gizmo", "fetch_gizmo_flags"):
        resources, field, producers = got[(consumer, "target")]
        assert (resources, field) == (["gizmo"], "id") and "list_gizmos" in producers


def test_a_scope_before_another_parameter_or_of_a_listing_stays():
    """`/gizmos/{realm}/{name}`: the realm scopes the gizmo named; `GET /gizmos/{realm}` lists a realm's gizmos."""
    tools = path_tools(
        path_op("list_all_gizmos", "GET", "/all-gizmos", output=PAGE_OF_IDS),
        path_op("get_gizmo", "GET", "/gizmos/{realm}/{name}", ["realm", "name"]),
        path_op("list_gizmos", "GET", "/gizmos/{realm}", ["realm"], output=PAGE_OF_IDS),
    )
    got = wanted(tools)
    assert got.get(("get_gizmo", "realm"), (["realm"],))[0] != ["gizmo"]
    assert got.get(("list_gizmos", "realm"), (["realm"],))[0] != ["gizmo"]


def test_a_word_the_catalog_offers_keeps_its_own_resource():
    """`/gizmos/{widget}`: a widget the catalog lists stays a widget."""
    tools = path_tools(
        path_op("list_widgets", "GET", "/widgets", output=PAGE_OF_IDS),
        path_op("list_gizmos", "GET", "/gizmos", output=PAGE_OF_IDS),
        path_op("fetch_gizmo_widget", "GET", "/gizmos/{widget}/parts", ["widget"]),
    )
    assert wanted(tools)[("fetch_gizmo_widget", "widget")][0] == ["widget"]


def test_a_scope_another_path_places_before_a_parameter_stays_before_a_static_segment():
    """`/gizmos/{realm}/lint`: the catalog's `/gizmos/{realm}/{name}` shows `realm` scopes gizmos, no gizmo."""
    tools = path_tools(
        path_op("list_gizmos", "GET", "/gizmos", output=PAGE_OF_IDS),
        path_op("get_gizmo", "GET", "/gizmos/{realm}/{name}", ["realm", "name"]),
        path_op("lint_gizmo", "POST", "/gizmos/{realm}/lint", ["realm"]),
        path_op("watch_gizmos", "GET", "/stream/gizmos/{realm}", ["realm"]),
    )
    got = wanted(tools)
    for consumer in ("lint_gizmo", "watch_gizmos"):
        assert got.get((consumer, "realm"), (["realm"],))[0] != ["gizmo"]


def test_path_scopes_reads_every_path_of_the_catalog():
    tools = prepare(
        path_tools(
            path_op("get_gizmo", "GET", "/gizmos/{realm}/{name}", ["realm", "name"]),
            path_op("fetch_gizmo_flags", "GET", "/gizmos/{target}/flags", ["target"]),
        )
    )
    assert path_scopes(tools) == {"realm"}
