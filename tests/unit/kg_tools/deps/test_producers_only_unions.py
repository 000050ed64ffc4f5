"""An HTTP parameter whose schema is only a `oneOf` of objects (a JSON:API `data`, one member per kind of
card, kg_tools/deps/producers.py `only_union`, nineteenth session): its members are read as a whole body's are, so
a `relationships.<r>.data.id` inside one yields a nested want. Small made-up specs, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.producers import nested_parameters, only_union, prepare
from tests.support.made_up_ops import op, wanted

SHELVES = op(
    "listShelves",
    "GET",
    "/shelves",
    [],
    output_schema={"type": "object", "properties": {"data": {"type": "array", "items": {"properties": {"id": {}}}}}},
)


def _shelf_link(kind: str) -> dict:
    reference = {"type": "object", "properties": {"type": {"type": "string"}, "id": {"type": "string"}}}
    return {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": [kind]},
            "relationships": {
                "type": "object",
                "properties": {"shelf": {"type": "object", "properties": {"data": reference}}},
            },
        },
    }


DATA = {"oneOf": [_shelf_link("paperBook"), _shelf_link("audioBook")]}
CREATE = op(
    "createBook",
    "POST",
    "/books",
    [{"name": "data", "type": "object", "required": True, "in": "body"}],
    input_schema={"type": "object", "properties": {"data": DATA}},
)


def test_only_a_union_of_objects_is_one():
    """A `oneOf` of objects is; an object with properties of its own, a union of scalars, or an optional object
    (`anyOf` or `oneOf` with null) is not."""
    assert only_union(DATA, {})
    assert not only_union({"type": "object", "properties": {"a": {}}, "oneOf": DATA["oneOf"]}, {})
    assert not only_union({"oneOf": [{"type": "string"}, {"type": "integer"}]}, {})
    assert not only_union({"anyOf": [DATA["oneOf"][0], {"type": "null"}]}, {})
    assert not only_union({"oneOf": [DATA["oneOf"][0], {"type": "null"}]}, {})


def test_a_reference_inside_a_union_parameter_is_wanted():
    """`data.relationships.shelf.data.id` of each kind of book is read, and wants the shelf."""
    paths = {p["path"] for p in nested_parameters(prepare([CREATE])["createBook"])}
    assert "data.relationships.shelf.data.id" in paths
    wants = wanted([SHELVES, CREATE])
    assert wants[("createBook", "data.relationships.shelf.data.id")] == (["shelf"], "id", {"listShelves"})
