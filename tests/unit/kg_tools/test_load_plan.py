"""`plan_load` without a database: what a load of each LoadMode creates, updates, keeps, deletes and embeds,
from the graph's tool states (cypher/tool_state.cypher rows) and a validated catalog."""

from __future__ import annotations

from kg_tools.ingest import (
    LoadMode,
    known_names,
    pick_writer,
    plan_load,
    write_fresh,
    write_in_one_transaction,
    write_versioned,
)
from kg_tools.tool_spec import spec_hash, validate_catalog

MODEL = "test-model"


def tool(name: str, deps: list[str] = (), description: str = "") -> dict:
    return {
        "name": name,
        "description": description or f"Plan test tool {name}.",
        "func_type": "regular",
        "depends_on": [{"name": d, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": "test"} for d in deps],
    }


def state(raw: dict, catalog: str, hand_edges: int = 0, model: str = MODEL) -> dict:
    return {
        "name": raw["name"],
        "catalog": catalog,
        "spec_hash": spec_hash(raw),
        "embedding_model": model,
        "has_embedding": True,
        "hand_edges": hand_edges,
    }


# The graph: catalog "shop" has a, b (b depends on a), gone; catalog "other" has o.
A, B, GONE, OTHER = tool("a"), tool("b", ["a"]), tool("gone"), tool("o")
EXISTING = {
    "a": state(A, "shop"),
    "b": state(B, "shop", hand_edges=1),
    "gone": state(GONE, "shop"),
    "o": state(OTHER, "other"),
}


def plan(raw_tools: list[dict], mode: LoadMode, existing: dict = EXISTING, **kwargs):
    validated = validate_catalog(raw_tools, known_names=known_names(existing, "shop", mode))
    return plan_load(existing, validated, mode, catalog="shop", model=MODEL, **kwargs)


def test_an_unchanged_load_plans_nothing():
    p = plan([A, B, GONE], LoadMode.ADD)
    assert (p.create, p.update, p.keep, p.delete, p.embed, p.edges) == ([], [], ["a", "b", "gone"], [], [], [])
    assert not p.needed


def test_add_creates_new_updates_changed_and_keeps_the_rest():
    changed = tool("a", description="A changed description.")
    p = plan([changed, B, tool("c", ["a"])], LoadMode.ADD)
    assert (p.create, p.update, p.keep, p.delete) == (["c"], ["a"], ["b"], [])
    assert p.embed == ["a", "c"]
    assert [(e["source"], e["target"]) for e in p.edges] == [("c", "a")]  # b's edge to a is unchanged
    assert p.needed and p.loaded == ["a", "b", "c"]


def test_replace_and_sync_delete_the_catalogs_tools_the_load_lacks():
    for mode in (LoadMode.REPLACE, LoadMode.SYNC):
        p = plan([A], mode)
        assert (p.keep, p.delete) == (["a"], ["b", "gone"]), mode  # "o" of another catalog stays
        assert p.needed


def test_a_tool_whose_hand_written_edges_differ_is_rewritten_without_re_embedding():
    existing = {**EXISTING, "b": state(B, "shop", hand_edges=0)}  # its edge deleted outside a load
    p = plan([A, B], LoadMode.ADD, existing)
    assert (p.update, p.embed) == (["b"], [])
    assert [(e["source"], e["target"]) for e in p.edges] == [("b", "a")]


def test_another_model_or_reembed_embeds_again():
    existing = {**EXISTING, "a": state(A, "shop", model="other-model")}
    assert plan([A, B], LoadMode.ADD, existing).embed == ["a"]
    assert plan([A, B], LoadMode.ADD, reembed=True).embed == ["a", "b"]


def test_a_name_of_another_catalog_is_another_tool():
    """Catalogs are namespaces: the same name in another catalog is created in this one, the other untouched."""
    p = plan([A, OTHER], LoadMode.ADD)
    assert p.create == ["o"] and p.update == [] and p.delete == []


def test_replace_all_creates_everything_and_always_writes():
    p = plan([A, OTHER], LoadMode.REPLACE_ALL)
    assert (p.create, p.update, p.keep, p.delete) == (["a", "o"], [], [], [])
    assert p.embed == ["a", "o"] and p.needed
    assert plan([], LoadMode.REPLACE_ALL).needed


def test_a_new_empty_catalog_is_recorded_except_by_a_sync():
    assert plan([], LoadMode.ADD, known_catalog=False).needed
    assert not plan([], LoadMode.SYNC, {}, known_catalog=False).needed


def test_the_writer_is_chosen_by_the_number_of_new_tools():
    many = [tool(f"n{i}") for i in range(3)]
    assert pick_writer(plan(many, LoadMode.ADD), batch_size=3) is write_in_one_transaction
    assert pick_writer(plan(many, LoadMode.ADD), batch_size=2) is write_versioned
    assert pick_writer(plan(many, LoadMode.REPLACE_ALL), batch_size=2) is write_fresh


def test_a_stored_tool_keeps_its_place_and_a_new_one_comes_after_the_stored_ones():
    """kg_tools/deps/sources.py reads a catalog's servers in the loaded order: a new tool comes after the stored
    ones, which keep theirs (review: two servers added one by one both had places 0, 1 … and were interleaved)."""
    stored = {n: {**r, "position": i} for i, (n, r) in enumerate(EXISTING.items())}  # a 0, b 1, gone 2; o 3
    new = tool("new")
    for mode in (LoadMode.ADD, LoadMode.REPLACE):
        assert plan([new, B, A], mode, existing=stored).positions == {"new": 3, "b": 1, "a": 0}
    assert plan([new, B, A], LoadMode.REPLACE_ALL, existing=stored).positions == {"new": 0, "b": 1, "a": 2}
    assert plan([new, A], LoadMode.ADD).positions == {"new": 0, "a": 1}  # stored without places: the load's
