"""A producer found by its description whose name makes another compound on the wanted head word
(kg_tools/deps/producers.py `_described_other_compound`; nineteenth session). Made-up tools, no real names."""

from __future__ import annotations

import random

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import compound_words, name_compounds, prepare
from tests.support.made_up_ops import candidate_triples as _candidates
from tests.support.made_up_ops import described_tool as _tool
from tests.support.made_up_ops import required_string as _p


def _racks(*more: ToolInfo) -> list[ToolInfo]:
    return [
        _tool("colour_racks_list", "List all colour racks.", []),
        _tool("boxrack_rename", "Rename a box rack.", [_p("name", "Box rack name")]),
        *more,
    ]


def test_another_compound_on_the_head_is_no_provider_when_the_own_one_has_tools():
    """`boxrack_rename(name)` renames a box rack and `boxracks_list` lists them: `colour_racks_list` (colour racks,
    found by its description) is no provider."""
    found = _candidates(_racks(_tool("boxracks_list", "List all box racks.", [])))
    assert ("boxrack_rename", "name", "boxracks_list") in found
    assert ("boxrack_rename", "name", "colour_racks_list") not in found


def test_another_compound_stays_when_no_third_tool_is_named_after_the_own_one():
    """Without a tool about box racks, the colour racks' list is kept as a candidate."""
    assert ("boxrack_rename", "name", "colour_racks_list") in _candidates(_racks())


def test_a_scope_the_producer_takes_is_no_other_compound():
    """`list_colour_racks(colour_id)` lists a colour's racks: a scope, kept."""
    tools = _racks(_tool("boxracks_list", "List all box racks.", []))
    tools[0] = _tool("list_colour_racks", "List all racks of a colour.", [_p("colour_id", "Colour ID")])
    assert ("boxrack_rename", "name", "list_colour_racks") in _candidates(tools)


def test_compound_words_read_the_word_before_the_head_also_glued():
    assert compound_words("port_groups_list", "group") == {"port"}
    assert compound_words("devicegroups_list", "group") == {"device"}
    assert compound_words("remove_tag_from_task", "task") == set()
    assert compound_words("list_groups", "group") == set()


def test_name_compounds_hold_every_tools_compound_words_of_every_head():
    """The catalog's index (read once) says of each (word, head) the tools whose compound_words name it."""
    names = ["port_groups_list", "devicegroups_list", "remove_tag_from_task", "list_groups", "boxrack_rename"]
    tools = prepare([_tool(n, "A tool.", []) for n in names])
    index = name_compounds(tools)
    heads = {h for _, h in index} | {"group", "task", "tag"}
    for head in heads:
        for n in names:
            assert {w for (w, h), found in index.items() if h == head and n in found} == compound_words(n, head)
    assert index[("port", "group")] == {"port_groups_list"}
    assert index[("device", "group")] == {"devicegroups_list"}
    assert index[("box", "rack")] == {"boxrack_rename"}


def test_name_compounds_match_compound_words_on_random_names():
    """Twenty-seventh session (review, fuzzed with hypothesis on 3,000 catalogs, here a seeded sample): the index
    equals compound_words of every name and head, whatever the separators, case, glued words and unicode."""
    rng = random.Random(27)
    pieces = ["port", "groups", "device", "devicegroups", "list", "get", "the", "x", "ÄÖ", "Users", "API", "policies"]
    for _ in range(200):
        names = {
            rng.choice(["_", "-", "", "__", "."]).join(rng.choices(pieces, k=rng.randint(1, 4)))
            for _ in range(rng.randint(1, 6))
        }
        index = name_compounds(prepare([_tool(n, "A tool.", []) for n in names if n]))
        for head in ("group", "port", "policy", "user", "list", "s"):
            for n in filter(None, names):
                assert {w for (w, h), found in index.items() if h == head and n in found} == compound_words(n, head)


def test_a_filter_the_producer_takes_is_no_scope():
    """`colour_racks_list(colour_type)` filters colour racks by a type: still another compound, dropped."""
    tools = _racks(_tool("boxracks_list", "List all box racks.", []))
    tools[0] = _tool("colour_racks_list", "List all colour racks.", [_p("colour_type", "Colour type to filter by")])
    assert ("boxrack_rename", "name", "colour_racks_list") not in _candidates(tools)


def _crate_groups(*more: ToolInfo) -> list[ToolInfo]:
    """`crategroup_id` names no resource of the catalog; its description's "crate group" reads as a group."""
    return [
        _tool("search_box_groups", "Search box groups. Returns the groups.", []),
        _tool("list_crates", "List crates.", []),
        _tool("create_crate", "Create a crate.", [_p("crategroup_id", "ID of the crate group to add the crate to")]),
        *more,
    ]


def test_a_glued_compound_looked_up_by_its_description_drops_another_compound():
    """`crategroup_id` is looked up as a group (its description's noun): the box groups' search, another compound
    on the head while `search_crate_groups` is named after the parameter's own (crate), is dropped."""
    found = _candidates(_crate_groups(_tool("search_crate_groups", "Search crate groups. Returns the groups.", [])))
    assert ("create_crate", "crategroup_id", "search_crate_groups") in found
    assert ("create_crate", "crategroup_id", "search_box_groups") not in found


def test_a_glued_compound_keeps_another_compound_when_no_tool_is_named_after_its_own():
    assert ("create_crate", "crategroup_id", "search_box_groups") in _candidates(_crate_groups())
