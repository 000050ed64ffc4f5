"""A list named for the value, however found, kept for a parameter nothing else provides (scoring.named_list_for):
twenty-fourth session, "the band below the threshold"."""

import dataclasses

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups, candidate_proposal
from kg_tools.deps.scoring import Scorer, default_scorer, select


def _tool(name: str, description: str, *params: str, output: dict | None = None) -> dict:
    tool = {
        "name": name,
        "description": description,
        "parameters": [{"name": p, "type": "string", "required": True} for p in params],
    }
    if output is not None:
        tool["output_schema"] = output
    return tool


ITEMS = {"type": "object", "properties": {"items": {"type": "array", "items": {"type": "object", "properties": {
    "id": {"type": "string"}, "name": {"type": "string"}}}}}}  # fmt: skip
TOOLS = [
    _tool("list_models", "Returns the models.", output=ITEMS),
    _tool("delete_model", "Deletes a model.", "model_id"),
]


def _scorer(named_list: float, listed: float = 0.0) -> Scorer:
    return Scorer(
        (), 0.0, 0.1, threshold=0.2, second=0.5, per_parameter=2, hub_share=1.0, hub_min=8, listed=listed,
        named_list=named_list,
    )  # fmt: skip


def _group(p: float):
    _, groups = candidate_groups([ToolInfo.from_raw(t) for t in TOOLS])
    [group] = [g for g in groups if g and (g[0].consumer.name, g[0].want.parameter) == ("delete_model", "model_id")]
    for c in group:
        c.probability = p if c.producer.name == "list_models" else 0.01
    return group


def test_the_list_is_found_by_its_output_schema_and_named_for_the_value():
    [c] = _group(0.15)
    assert c.offer is not None and c.offer.source == "schema"
    assert c.producer.kind == "list" and c.resource_in_name and c.want.field == "id"


def test_a_parameter_without_a_provider_keeps_the_named_list_at_the_floor():
    group = _group(0.15)
    kept, abstained = select([group], _scorer(0.13))
    assert [c.producer.name for c in kept] == ["list_models"] and abstained["below_threshold"] == 0
    assert select([group], _scorer(0.0))[0] == []  # off
    assert select([_group(0.1)], _scorer(0.13))[0] == []  # below the floor


def test_only_a_list_named_for_the_value_of_its_id_top_level():
    [c] = _group(0.15)
    assert select([[dataclasses.replace(c, resource_in_name=False)]], _scorer(0.13))[0] == []
    c.producer.kind = "search"
    assert select([[c]], _scorer(0.13))[0] == []
    c.producer.kind = "list"
    assert select([[dataclasses.replace(c, want=dataclasses.replace(c.want, field="name"))]], _scorer(0.13))[0] == []
    nested = dataclasses.replace(c.want, parameter="body.model_id", nested=True)
    assert select([[dataclasses.replace(c, want=nested)]], _scorer(0.13))[0] == []


def test_a_provider_above_the_threshold_is_kept_as_before():
    assert [c.producer.name for c in select([_group(0.6)], _scorer(0.13))[0]] == ["list_models"]


def test_the_kept_list_has_the_threshold_as_confidence_and_says_why():
    [c] = select([_group(0.15)], _scorer(0.13))[0]
    proposal = candidate_proposal(c, 0, 0.2)
    assert proposal.confidence == 0.2 and "a list of it; nothing else provides it" in proposal.reason


def test_the_floor_round_trips_and_ships():
    scorer = default_scorer()
    assert scorer.named_list == 0.13
    assert Scorer.from_dict(scorer.as_dict()).named_list == scorer.named_list


def test_not_the_consumer_written_twice():
    # `userList` found by its name for `user_list`'s id: one operation, not its provider (one_operation)
    [c] = _group(0.15)
    twin = dataclasses.replace(c, producer=dataclasses.replace(c.producer, name="deleteModel"))
    assert select([[twin]], _scorer(0.13))[0] == []
