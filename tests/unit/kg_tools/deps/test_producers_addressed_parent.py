"""A nested list addressed by a bare `{id}` (`GET /whiteboards/{id}/properties`, Confluence's
`getWhiteboardContentProperties`, "The ID of the whiteboard for which content properties should be returned") lists
the properties of the whiteboard it is given: its `{id}` reads whiteboard and property, and the property made the
list look one property up, so `/whiteboards/{whiteboard-id}/properties/{property-id}` was fed other parents' property
lists instead (kg_tools/deps/producers.py `_addressed`; docs/dependencies.md, twenty-sixth session: a second first
contact with unseen specs). Small made-up operations."""

from __future__ import annotations

from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import op

PROPERTY = {"title": "ContentProperty", "type": "object", "properties": {"id": {"type": "string"}}}
PROPERTIES = {"type": "object", "properties": {"results": {"type": "array", "items": PROPERTY}}}
PARENT = "The ID of the whiteboard for which content properties should be returned."


def _path(name: str, description: str = "") -> dict:
    return {"name": name, "type": "string", "description": description, "required": True, "in": "path"}


def _offers(reader) -> dict[str, set[str | None]]:
    """producer -> the output paths it offers for `property-id` of a whiteboard's property, beside `reader`."""
    consumer = op(
        "getWhiteboardPropertyById",
        "GET",
        "/whiteboards/{whiteboard-id}/properties/{property-id}",
        [_path("whiteboard-id"), _path("property-id")],
    )
    _, groups = candidate_groups([reader, consumer])
    out: dict[str, set[str | None]] = {}
    for c in (c for g in groups for c in g):
        if c.consumer.name == consumer.name and c.want.parameter == "property-id":
            out.setdefault(c.producer.name, set()).add(c.offer.path if c.offer else None)
    return out


def test_a_list_under_a_bare_id_offers_its_items():
    reader = op(
        "getWhiteboardContentProperties",
        "GET",
        "/whiteboards/{id}/properties",
        [_path("id", PARENT)],
        output_schema=PROPERTIES,
    )
    assert "results[].id" in _offers(reader)["getWhiteboardContentProperties"]


def test_a_bare_id_at_the_end_still_looks_its_thing_up():
    reader = op(
        "getContentPropertyById",
        "GET",
        "/properties/{id}",
        [_path("id", "The ID of the content property.")],
        output_schema=PROPERTY,
    )
    assert "id" not in _offers(reader).get("getContentPropertyById", set())
