"""Stand-in servers for a large catalog in no server order (kg_tools/deps/standins.py; twenty-seventh session): its
tools clustered into products by the rare marks they share, inference run inside each cluster. Made-up tool lists,
no names of real ones."""

from __future__ import annotations

import random

from kg_tools.deps import sources, standins, unordered
from kg_tools.deps.infer import structural_edges
from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import sourced_parts
from kg_tools.deps.standins import alike, communities, marks, stand_in_servers


def _tool(name: str, description: str, param: str = "", param_description: str = "") -> ToolInfo:
    parameters = [{"name": param, "type": "string", "description": param_description, "required": True}]
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": parameters if param else []})


def _product(product: str, n: int) -> list[ToolInfo]:
    """n tools of one product, all snake_case: `list_<tag>_boxes` and readers of one `box_id`; the product's name
    is its only word that few tools write (and the lists' `n:list`)."""
    tag = product[:3].lower()
    tools = [_tool(f"list_{tag}_boxes", f"The boxes of a {product} shelf.")]
    readers = [f"open_{tag}_boxes_{tag}{i}" for i in range(n - 1)]
    text = f"Open a box of {product} from the shelf list."
    return tools + [_tool(name, text, "box_id", "One of the boxes.") for name in readers]


PRODUCTS = ("Crate", "Depot", "Forge", "Hatch", "Kiosk", "Lathe", "Mould", "Quarry")


def _catalog(seed: int) -> list[ToolInfo]:
    """Eight products of 10 to 17 tools (104), shuffled."""
    tools = [t for i, p in enumerate(PRODUCTS) for t in _product(p, 10 + i)]
    random.Random(seed).shuffle(tools)
    return tools


def test_a_tools_marks_are_its_words_its_names_words_and_its_parameters_names():
    tool = _tool("open_crateBox", "Open a Crate box.", "box_id", "The box.")
    assert marks(tool) == {"open", "crate", "box", "the", "n:open", "n:crate", "n:box", "@box_id"}


def test_two_tools_are_alike_by_the_rare_marks_they_share(monkeypatch):
    monkeypatch.setattr(standins, "RARE_TOOLS", 20)
    graph = alike({t.name: t for t in _catalog(1)})
    assert graph["open_cra_boxes_cra1"]["open_cra_boxes_cra2"] > 0  # `crate`, `n:cra`: held by 10 of 108 tools
    assert "open_dep_boxes_dep1" not in graph["open_cra_boxes_cra1"]  # `open`, `box`, `@box_id`: held by more than 20
    assert graph["open_cra_boxes_cra1"]["list_cra_boxes"] == graph["open_cra_boxes_cra1"]["open_cra_boxes_cra2"]


def test_communities_of_two_dense_groups_joined_by_one_light_edge():
    left, right = ["a", "b", "c", "d"], ["w", "x", "y", "z"]
    graph: dict[str, dict[str, float]] = {n: {} for n in left + right}
    for group in (left, right):
        for m in group:
            for n in group:
                if m != n:
                    graph[m][n] = 2.0
    graph["d"]["w"] = graph["w"]["d"] = 0.5
    for order in (left + right, right[::-1] + left):
        found = communities(order, graph, resolution=1.0)
        assert len({found[n] for n in left}) == 1
        assert len({found[n] for n in right}) == 1
        assert found["a"] != found["z"]
    assert communities(["a", "b"], {}) == {"a": 0, "b": 1}  # nothing shared: each its own


def test_stand_in_servers_are_the_products_whatever_the_order(monkeypatch):
    monkeypatch.setattr(standins, "RARE_TOOLS", 20)
    found = [stand_in_servers({t.name: t for t in _catalog(seed)}) for seed in (1, 2)]
    assert found[0] == found[1]
    servers = found[0]
    for product in PRODUCTS:
        assert len({s for n, s in servers.items() if f"_{product[:3].lower()}_" in n}) == 1
    assert len(set(servers.values())) == len(PRODUCTS)


def test_a_shuffled_catalog_is_inferred_inside_its_stand_in_servers(monkeypatch):
    tools = _catalog(3)
    monkeypatch.setattr(sources, "MANY_TOOLS", len(tools))
    monkeypatch.setattr(standins, "RARE_TOOLS", 20)
    monkeypatch.setattr(unordered, "RARE_SHARE", 0.4)
    parts = sourced_parts(tools)
    assert sorted(len(p) for p in parts.values()) == list(range(10, 18))
    assert all(len({t.name[5:8] for t in part}) == 1 for part in parts.values())
    pairs = {(e.source, e.target) for e in structural_edges(tools, sources=None, min_confidence=0.2)}
    assert ("open_cra_boxes_cra3", "list_cra_boxes") in pairs
    assert ("open_qua_boxes_qua3", "list_qua_boxes") in pairs
    assert not {(s, t) for s, t in pairs if s[5:8] != t[5:8]}


def test_in_server_order_or_below_many_tools_no_stand_ins(monkeypatch):
    tools = [t for i, p in enumerate(PRODUCTS) for t in _product(p, 10 + i)]
    assert len(sourced_parts(tools)) == 1  # fewer than MANY_TOOLS: one server's size
    monkeypatch.setattr(sources, "MANY_TOOLS", len(tools))
    assert all(not n.startswith("~") for n in sourced_parts(tools))  # in server order: name families
