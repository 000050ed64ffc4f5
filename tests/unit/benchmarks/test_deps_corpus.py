"""benchmarks/deps_corpus.py: recall over the gold pairs whose provider is not a create (two gold conventions)."""

from __future__ import annotations

from benchmarks.deps_corpus import without_creates
from kg_tools.deps.offline import LabelledEdge
from tests.support.made_up_ops import op


def test_recall_without_creates_leaves_out_pairs_whose_provider_is_a_create():
    tools = [
        op("listCrates", "GET", "/crates", []),
        op("createCrate", "POST", "/crates", [{"name": "label", "in": "body", "type": "string"}]),
        op("getCrate", "GET", "/crates/{crate_id}", [{"name": "crate_id", "in": "path", "type": "string"}]),
    ]
    gold = [
        LabelledEdge("getCrate", p, "PARAMETER_DIRECTLY_DEPENDS_ON", "crate_id") for p in ("listCrates", "createCrate")
    ]
    assert without_creates(tools, gold, ["getCrate -> createCrate"]) == {"gold": 1, "true_positives": 1}
    assert without_creates(tools, gold, ["getCrate -> listCrates"]) == {"gold": 1, "true_positives": 0}
