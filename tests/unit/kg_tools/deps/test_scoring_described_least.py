"""A description's offer for a want of no id or key needs `Scorer.described_least` (kg_tools/deps/scoring.py
`_weakly_described`; nineteenth session, "description-found edges on unseen servers"). Made-up tools."""

from __future__ import annotations

from kg_tools.deps.producers import candidate_groups
from kg_tools.deps.scoring import Scorer, default_scorer, select
from tests.support.made_up_ops import described_tool as _tool


def _p(name: str, description: str) -> dict:
    return {"name": name, "type": "string", "description": description, "required": True}


# no output schemas: what each list returns is read from its name and description
TOOLS = [
    _tool("list_shelves", "Lists all shelves in the store.", []),
    _tool("shelf_open", "Opens a shelf.", [_p("shelf_id", "ID of the shelf")]),
    _tool("shelf_rename", "Renames a shelf.", [_p("shelf_name", "Name of the shelf")]),
]


def _scorer(least: float) -> Scorer:
    return Scorer(
        (), 0.0, 0.1, threshold=0.2, second=0.5, per_parameter=2, hub_share=1.0, hub_min=8, described_least=least
    )


def _kept(least: float, p: float) -> set[tuple[str, str]]:
    _, groups = candidate_groups(TOOLS)
    groups = [[c for c in g if c.producer.name == "list_shelves"] for g in groups]
    for c in (c for g in groups for c in g):
        assert c.offer is not None and c.offer.source == "description"
        c.probability = p
    kept, _ = select([g for g in groups if g], _scorer(least))
    return {(c.consumer.name, c.want.field) for c in kept}


def test_a_described_name_below_the_floor_is_no_edge_an_id_is():
    assert _kept(0.35, 0.3) == {("shelf_open", "id")}
    assert _kept(0.35, 0.4) == {("shelf_open", "id"), ("shelf_rename", "name")}
    assert _kept(0.0, 0.3) == {("shelf_open", "id"), ("shelf_rename", "name")}  # off


def test_the_shipped_floor_round_trips():
    scorer = default_scorer()
    assert scorer.threshold < scorer.described_least < 0.5
    assert Scorer.from_dict(scorer.as_dict()).described_least == scorer.described_least
