"""A list named for the value, found by its description, kept for a parameter nothing else provides
(scoring.listed_for): twenty-third session, "recall at held precision"."""

import dataclasses

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups, candidate_proposal
from kg_tools.deps.scoring import Scorer, _spelled_as_id, default_scorer, select


def _tool(name: str, description: str, *params: str) -> dict:
    return {
        "name": name,
        "description": description,
        "parameters": [{"name": p, "type": "string", "required": True} for p in params],
    }


# an MCP server without output schemas: what a tool returns is what its description says
DOCS = [
    _tool("list_documents", "Lists the documents of a workspace.", "workspace_id"),
    _tool("list_workspaces", "Lists the workspaces the user can see."),
    _tool("delete_document", "Deletes a document.", "doc_id"),
]


def _scorer(listed: float) -> Scorer:
    return Scorer((), 0.0, 0.1, threshold=0.2, second=0.5, per_parameter=2, hub_share=1.0, hub_min=8, listed=listed)


def _group(p: dict[str, float]):
    _, groups = candidate_groups([ToolInfo.from_raw(t) for t in DOCS])
    [group] = [g for g in groups if g and (g[0].consumer.name, g[0].want.parameter) == ("delete_document", "doc_id")]
    for c in group:
        c.probability = p.get(c.producer.name, 0.01)
    return group


def test_the_list_named_for_the_value_is_a_described_candidate():
    by = {c.producer.name: c for c in _group({})}
    c = by["list_documents"]
    assert c.offer is not None and c.offer.source == "description" and c.offer.primary
    assert c.producer.kind == "list" and c.resource_in_name


def test_a_parameter_without_a_provider_keeps_the_list_named_for_it_above_the_floor():
    group = _group({"list_documents": 0.05})
    kept, abstained = select([group], _scorer(0.02))
    assert [c.producer.name for c in kept] == ["list_documents"] and abstained["below_threshold"] == 0
    assert select([group], _scorer(0.0))[0] == []  # off
    assert select([group], _scorer(0.1))[0] == []  # below the floor


def test_only_a_list_named_for_the_value():
    group = _group({"list_documents": 0.05})
    [c] = group
    c.producer.kind = "search"  # a search, not a list
    assert select([group], _scorer(0.02))[0] == []
    c.producer.kind, c.resource_in_name = "list", False  # a list of another thing that mentions documents
    assert select([group], _scorer(0.02))[0] == []


def test_a_provider_above_the_threshold_is_kept_as_before():
    group = _group({"list_documents": 0.6})
    kept, _ = select([group], _scorer(0.02))
    assert [c.producer.name for c in kept] == ["list_documents"]


def test_the_kept_list_has_the_threshold_as_confidence_and_says_why():
    [c] = select([_group({"list_documents": 0.05})], _scorer(0.02))[0]
    proposal = candidate_proposal(c, 0, 0.2)
    assert proposal.confidence == 0.2 and "nothing else provides it" in proposal.reason


def test_the_floor_round_trips():
    scorer = default_scorer()
    assert Scorer.from_dict(scorer.as_dict()).listed == scorer.listed


def test_only_a_top_level_parameter_spelled_as_an_id():
    [c] = _group({"list_documents": 0.05})
    assert _spelled_as_id(c.want)
    assert _spelled_as_id(dataclasses.replace(c.want, parameter="documentid"))
    assert not _spelled_as_id(dataclasses.replace(c.want, parameter="id"))  # bare: whose id?
    assert not _spelled_as_id(dataclasses.replace(c.want, parameter="from"))  # a value read as an id
    assert not _spelled_as_id(dataclasses.replace(c.want, parameter="ops[].doc_id", nested=True))
    assert not _spelled_as_id(dataclasses.replace(c.want, field="name"))


def test_not_when_another_candidate_holds_the_value_inside_something_else():
    [c] = _group({"list_documents": 0.05})
    assert c.offer is not None
    inside = dataclasses.replace(c, offer=dataclasses.replace(c.offer, primary=False), probability=0.01)
    assert select([[c, inside]], _scorer(0.02))[0] == []
    beside = dataclasses.replace(c, probability=0.01)  # another list of it, not nested: the first is kept
    assert [x.producer.name for x in select([[c, beside]], _scorer(0.02))[0]] == ["list_documents"]
