"""An object written as `allOf` parts, its own identifier in one part and the objects it holds in another
(kg_tools/deps/resources.py, twenty-first session): the part without the identifier is not a wrapper, so the
objects it holds are nested offers, not what the response is about. Small made-up schemas."""

from __future__ import annotations

from kg_tools.deps.resources import _has_own_identifier, schema_offers

LABEL = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
COMMENT = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
REPORT_PARTS = {
    "title": "ExtendedReport",
    "allOf": [
        {"title": "Report", "allOf": [{"type": "object", "properties": {"id": {"type": "string"}}}]},
        {
            "type": "object",
            "properties": {"Label": {"type": "array", "items": LABEL}, "Comment": COMMENT},
        },
    ],
}


def _primary(schema: dict) -> dict[tuple[str, str], bool]:
    return {(o.resource, o.field): o.primary for o in schema_offers("t", schema)}


def test_objects_beside_an_identifier_in_another_allof_part_are_nested():
    """A search's items are reports whose `id` is in one part and their labels and comment in the other."""
    offers = _primary({"title": "ExtendedReportList", "type": "array", "items": REPORT_PARTS})
    assert offers[("report", "id")] is True
    assert offers[("label", "id")] is False
    assert offers[("comment", "id")] is False


def test_the_same_parts_under_an_envelope_key():
    """`response[].Report` holding the parts: the envelope item is a wrapper, the report's labels stay nested."""
    schema = {
        "type": "object",
        "properties": {
            "response": {"type": "array", "items": {"type": "object", "properties": {"Report": REPORT_PARTS}}}
        },
    }
    offers = _primary(schema)
    assert offers[("report", "id")] is True
    assert offers[("label", "id")] is False


def test_a_wrapper_without_an_identifier_in_any_part_still_wraps():
    """A membership with no identifier of its own, in parts or not, is the user it wraps: the user's id is primary."""
    member = {
        "allOf": [
            {"type": "object", "properties": {"joined_at": {"type": "string"}}},
            {"type": "object", "properties": {"user": {"title": "User", **COMMENT}}},
        ]
    }
    offers = _primary({"type": "object", "properties": {"members": {"type": "array", "items": member}}})
    assert offers[("user", "id")] is True


def test_an_identifier_deep_in_allof_of_allof_is_found_and_shared_parts_read_once():
    """`allOf` of `allOf` six deep still holds the object's identifier (the walk reads that deep; the look-up stopped at
    four), and a part shared fifty ways four deep is read once, not 50**4 times (review of the twenty-first session)."""
    deep: dict = {"type": "object", "properties": {"id": {"type": "string"}}}
    for _ in range(6):
        deep = {"allOf": [deep]}
    event = {"title": "Event", "allOf": [deep, {"properties": {"Org": {"title": "Org", **LABEL}}}]}
    assert _primary({"type": "array", "items": event})[("organization", "id")] is False
    shared: dict = {"type": "object", "properties": {"name": {"type": "string"}}}
    for _ in range(4):
        shared = {"allOf": [shared] * 50}
    cyclic: dict = {"title": "Event", "allOf": [{"properties": {"Org": {"title": "Org", **LABEL}}}, shared]}
    cyclic["allOf"].append(cyclic)
    assert _primary({"type": "array", "items": cyclic})[("organization", "id")] is True


def test_a_part_met_with_little_depth_left_is_answered_again_from_the_top():
    """The answers are kept by node and depth left: a part whose `id` is five `allOf`s down, met first eight levels
    deep (four left: not found), still finds it when met at the top (twelve left; review of the twenty-second
    session: the answer was kept by node only, so the first one stood)."""
    part: dict = {"type": "object", "properties": {"id": {"type": "string"}}}
    for _ in range(5):
        part = {"allOf": [part]}
    outer = part
    for _ in range(8):
        outer = {"allOf": [outer]}
    seen: dict = {}
    assert _has_own_identifier(outer, seen) is False  # thirteen `allOf`s down: past the look-up's twelve
    assert _has_own_identifier(part, seen) is True
