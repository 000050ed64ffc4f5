"""A large catalog in no server order (kg_tools/deps/unordered.py; twenty-sixth session): a value flows only between
tools that share a rare description word. Made-up tool lists, no names of real ones."""

from __future__ import annotations

import random

from kg_tools.deps import sources, unordered
from kg_tools.deps.infer import structural_edges
from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.unordered import may_flow, neighbours_share, rare_words, text_words


def _tool(name: str, description: str, param: str = "", param_description: str = "") -> ToolInfo:
    parameters = [{"name": param, "type": "string", "description": param_description, "required": True}]
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": parameters if param else []})


def _product(product: str, spelling: str, n: int) -> list[ToolInfo]:
    """n tools of one product: `list_boxes` and its readers of one `box_id`, in snake_case or camelCase."""
    tag = product[:3].lower()
    names = [f"list_{tag}_boxes"] + [f"open_{tag}_box_{tag}{i}" for i in range(n - 1)]
    if spelling == "camel":
        names = [f"list{tag.title()}Boxes"] + [f"open{tag.title()}Box{tag.title()}{i}" for i in range(n - 1)]
    tools = [_tool(names[0], f"List the boxes of a {product} shelf.")]
    return tools + [_tool(m, f"Open a box of {product}.", "box_id", "The box.") for m in names[1:]]


def test_a_tools_words_are_its_descriptions_and_its_parameters_descriptions():
    tool = _tool("open_box", "Open a Crate box.", "box_id", "The shelf's box (v2).")
    assert text_words(tool) == {"open", "crate", "box", "the", "shelf", "v2"}


def test_a_value_may_flow_between_tools_sharing_a_rare_word_or_outside_the_guard():
    rare = {"a": frozenset({"crate"}), "b": frozenset({"crate", "pallet"}), "c": frozenset({"depot"})}
    assert may_flow("a", "b", rare)
    assert not may_flow("a", "c", rare)
    assert may_flow("a", "x", rare)  # a tool with a declared source or an HTTP operation
    assert may_flow("a", "c", {})


def test_rare_words_only_for_many_tools_in_no_server_order(monkeypatch):
    """Two products of one spelling and a third of another: in server order, or fewer than MANY_TOOLS, the guard is
    off; shuffled or sorted by name it is on, and a product's name is rare where `box` is not."""
    tools = _product("Crate", "snake", 10) + _product("Depot", "snake", 10) + _product("Forge", "camel", 20)
    by = {t.name: t for t in tools}
    names = [t.name for t in tools]
    shuffled = names[:]
    random.Random(3).shuffle(shuffled)
    assert rare_words(shuffled, {}, set(), by) == {}  # fewer than MANY_TOOLS
    monkeypatch.setattr(sources, "MANY_TOOLS", len(names))
    monkeypatch.setattr(unordered, "RARE_SHARE", 0.3)  # at most 12 of the 40 tools
    assert rare_words(names, {}, set(), by) == {}  # server order
    for listing in (shuffled, sorted(names)):
        rare = rare_words(listing, {}, set(), by)
        assert rare["open_cra_box_cra3"] == {"crate"}
        assert rare["list_cra_boxes"] == {"crate", "list", "boxes", "shelf"}  # the lists' words: three tools
        assert may_flow("open_cra_box_cra3", "list_cra_boxes", rare)
        assert not may_flow("open_dep_box_dep3", "list_cra_boxes", rare)
    declared = {n: "forge" for n in names[20:]}  # 20 tools left without a source: fewer than MANY_TOOLS
    assert rare_words(shuffled, declared, set(), by) == {}


def test_no_value_flows_between_products_of_one_spelling_in_a_shuffled_catalog(monkeypatch):
    tools = _product("Crate", "snake", 10) + _product("Depot", "snake", 10) + _product("Forge", "camel", 20)
    random.Random(3).shuffle(tools)
    monkeypatch.setattr(sources, "MANY_TOOLS", len(tools))
    monkeypatch.setattr(unordered, "RARE_SHARE", 0.3)
    pairs = {(e.source, e.target) for e in structural_edges(tools, sources=None, min_confidence=0.2)}
    # (a product's list and its readers: test_standins.py, eight products; three lists of 40 tools that share four
    # words the readers lack are one stand-in server of their own, kg_tools/deps/standins.py)
    assert not {(s, t) for s, t in pairs if s[5:8] != t[5:8]}
    monkeypatch.setattr(unordered, "RARE_SHARE", 0.0)  # no rare word: no value flows
    assert not structural_edges(tools, sources=None, min_confidence=0.2)


def test_neighbours_of_one_server_share_rare_words_shuffled_ones_no_more_than_far_apart_ones():
    crate, depot, forge = frozenset({"crate"}), frozenset({"depot"}), frozenset({"forge"})
    in_order = [crate] * 10 + [depot] * 10 + [forge] * 10
    assert neighbours_share(in_order)
    assert not neighbours_share([crate, depot, forge] * 10)  # never next to their own, half apart often
    assert neighbours_share([frozenset()] * 30)  # no rare word: nothing tells


def test_a_shuffled_listing_one_spelling_dominates_is_caught_by_its_neighbours_words(monkeypatch):
    """Most names of one spelling: keeps_server_order reads any order as server order (few runs of another shape),
    the neighbours' rare words do not."""
    tools = _product("Crate", "snake", 20) + _product("Depot", "snake", 20) + _product("Forge", "camel", 5)
    by = {t.name: t for t in tools}
    names = [t.name for t in tools]
    shuffled = names[:]
    random.Random(3).shuffle(shuffled)
    monkeypatch.setattr(sources, "MANY_TOOLS", len(names))
    monkeypatch.setattr(unordered, "RARE_SHARE", 0.5)  # at most 22 of the 45 tools: each product's name
    assert sources.keeps_server_order(shuffled)
    assert rare_words(names, {}, set(), by) == {}
    assert not may_flow("open_dep_box_dep3", "list_cra_boxes", rare_words(shuffled, {}, set(), by))
