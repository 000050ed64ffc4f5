"""A create of the consumer's collection kept beside its readers (scoring.made_beside): twenty-sixth session."""

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups, candidate_proposal
from kg_tools.deps.scoring import Scorer, default_scorer, select
from tests.support.made_up_ops import path_op


def _object(title, **fields):
    return {"title": title, "type": "object", "properties": {name: {"type": kind} for name, kind in fields.items()}}


# threads are listed, made by a POST to their collection and addressed; a note makes a thread too, elsewhere
THREADS = [
    path_op("listThreads", "GET", "/threads", output={"type": "array", "items": _object("Thread", id="string")}),
    path_op("createThread", "POST", "/threads", output=_object("Thread", id="string", created_at="integer")),
    path_op("createThreadFromNote", "POST", "/notes/thread", output=_object("Thread", id="string")),
    path_op("deleteThread", "DELETE", "/threads/{thread_id}", ["thread_id"]),
]


def _scorer(beside: float) -> Scorer:
    return Scorer(
        (),
        0.0,
        0.1,
        threshold=0.2,
        second=0.5,
        per_parameter=2,
        hub_share=1.0,
        hub_min=8,
        made=0.05,
        made_beside=beside,
    )


def _group(p: dict[str, float]):
    _, groups = candidate_groups([ToolInfo.from_raw(t) for t in THREADS])
    [group] = [g for g in groups if g and (g[0].consumer.name, g[0].want.parameter) == ("deleteThread", "thread_id")]
    for c in group:
        c.probability = p.get(c.producer.name, 0.01)
    return group


def test_the_create_of_the_collection_returning_the_new_id_joins_the_readers():
    by = {c.producer.name: c for c in _group({})}
    assert by["createThread"].made and by["createThread"].path_create
    group = _group({"listThreads": 0.9, "createThread": 0.03})
    kept, _ = select([group], _scorer(0.005))
    assert [c.producer.name for c in kept] == ["listThreads", "createThread"]
    assert select([group], _scorer(0.0))[0] == kept[:1]  # off
    assert [c.producer.name for c in select([group], _scorer(0.05))[0]] == ["listThreads"]  # below the floor


def test_a_create_elsewhere_is_not_kept_beside_the_readers():
    group = _group({"listThreads": 0.9, "createThread": 0.0, "createThreadFromNote": 0.1})
    names = [c.producer.name for c in select([group], _scorer(0.005))[0]]
    assert "createThreadFromNote" not in names


def test_the_create_beside_has_the_threshold_as_confidence_and_says_so():
    kept, _ = select([_group({"listThreads": 0.9, "createThread": 0.03})], _scorer(0.005))
    proposal = candidate_proposal(kept[1], 1, 0.2)
    assert proposal.confidence == 0.2 and "beside its readers" in proposal.reason
    assert candidate_proposal(kept[0], 0, 0.2).confidence >= proposal.confidence


def test_the_shipped_floor_round_trips():
    scorer = default_scorer()
    assert 0.0 < scorer.made_beside < scorer.threshold
    assert Scorer.from_dict(scorer.as_dict()).made_beside == scorer.made_beside
