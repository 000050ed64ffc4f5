"""A create kept for a parameter nothing else provides (scoring.made_for, producers.offers_new): eighteenth session."""

import dataclasses

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups, candidate_proposal, offers_new
from kg_tools.deps.scoring import Scorer, default_scorer, select
from tests.support.made_up_ops import path_op


def _object(title, **fields):
    return {"title": title, "type": "object", "properties": {name: {"type": kind} for name, kind in fields.items()}}


# threads are made and addressed; a list of the recent ones is a reader of their ids
THREADS = [
    path_op(
        "listRecentThreads", "GET", "/threads/recent", output={"type": "array", "items": _object("Thread", id="string")}
    ),
    path_op("createThread", "POST", "/threads", output=_object("Thread", id="string", created_at="integer")),
    path_op("deleteThread", "DELETE", "/threads/{thread_id}", ["thread_id"]),
    path_op(
        "createMessage",
        "POST",
        "/threads/{thread_id}/messages",
        ["thread_id"],
        output=_object("Message", id="string", thread_id="string"),
    ),
    path_op("deleteMessage", "DELETE", "/threads/{thread_id}/messages/{message_id}", ["thread_id", "message_id"]),
]


def _scorer(made: float) -> Scorer:
    return Scorer((), 0.0, 0.1, threshold=0.2, second=0.5, per_parameter=2, hub_share=1.0, hub_min=8, made=made)


def _group(consumer: str, parameter: str, p: dict[str, float]):
    _, groups = candidate_groups([ToolInfo.from_raw(t) for t in THREADS])
    [group] = [g for g in groups if g and (g[0].consumer.name, g[0].want.parameter) == (consumer, parameter)]
    for c in group:
        c.probability = p.get(c.producer.name, 0.01)
    return group


def test_a_create_offers_the_new_instance_when_its_output_gives_the_id_of_what_it_makes():
    by = {c.producer.name: c for c in _group("deleteThread", "thread_id", {})}
    made, listed = by["createThread"], by["listRecentThreads"]
    assert made.made and offers_new(made.producer, made.offer)  # `id` of the thread it makes
    assert not listed.made  # a reader
    offer = made.offer
    assert offer is not None
    assert not offers_new(made.producer, dataclasses.replace(offer, reference=True))  # another object's `thread_id`
    assert not offers_new(made.producer, dataclasses.replace(offer, primary=False))  # nested in another object
    assert not offers_new(made.producer, dataclasses.replace(offer, resource="run"))  # not what it makes
    assert not offers_new(made.producer, dataclasses.replace(offer, source="description"))
    assert not offers_new(made.producer, None)  # the path template alone


def test_a_parameter_without_a_provider_keeps_its_create_above_the_floor():
    group = _group("deleteThread", "thread_id", {"createThread": 0.1, "listRecentThreads": 0.15})
    kept, abstained = select([group], _scorer(0.05))
    assert [c.producer.name for c in kept] == ["createThread"] and abstained["below_threshold"] == 0
    assert select([group], _scorer(0.0))[0] == []  # off
    assert select([group], _scorer(0.12))[0] == []  # below the floor


def test_a_parameter_with_a_provider_above_the_threshold_takes_no_create():
    group = _group("deleteThread", "thread_id", {"createThread": 0.1, "listRecentThreads": 0.6})
    kept, _ = select([group], _scorer(0.05))
    assert [c.producer.name for c in kept] == ["listRecentThreads"]


def test_the_kept_create_has_the_threshold_as_confidence_and_says_why():
    group = _group("deleteThread", "thread_id", {"createThread": 0.1})
    [c] = select([group], _scorer(0.05))[0]
    proposal = candidate_proposal(c, 0, 0.2)
    assert proposal.confidence == 0.2 and "nothing else provides it" in proposal.reason
    above = candidate_proposal(dataclasses.replace(c, probability=0.7), 0, 0.2)
    assert above.confidence == 0.7 and "nothing else" not in above.reason


def test_the_shipped_selection_keeps_creates_and_the_floor_round_trips():
    scorer = default_scorer()
    assert 0.0 < scorer.made < scorer.threshold
    assert Scorer.from_dict(scorer.as_dict()).made == scorer.made
