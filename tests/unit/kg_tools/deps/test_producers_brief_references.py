"""Object fields that are brief references (kg_tools/deps/producers.py `_brief_reference`): a body field named by a
resource of the catalog whose schema requires only identifiers (`shelf: {name, slug}`, drf-spectacular's
`BriefShelfRequest`) wants that resource's id; an object with an `id` of its own (wanted inside, `shelf.id`), one that
requires data (`{name, colour}`) or the tool's own resource (its new data) is left to the other rules. Made-up tools."""

from __future__ import annotations

from tests.support.made_up_ops import op, wanted


def _brief(required: list[str], extra: dict | None = None) -> dict:
    props = {"name": {"type": "string"}, "slug": {"type": "string"}, "description": {"type": "string"}}
    return {"type": "object", "properties": props | (extra or {}), "required": required}


def _update(name: str, path: str, fields: dict[str, dict]) -> object:
    """`PUT path` taking object body fields `fields` (their schemas in the tool's input schema)."""
    params = [{"name": f, "type": "object", "description": "", "required": False, "in": "body"} for f in fields]
    return op(name, "PUT", path, params, input_schema={"type": "object", "properties": fields})


def _catalog(*extra):
    return [op("widget_list", "GET", "/widget/", []), op("shelf_list", "GET", "/shelf/", []), *extra]


def test_an_object_requiring_only_identifiers_wants_the_named_resources_id():
    """`shelf: {name, slug}` and `default_shelf: {name}` of a widget update: a shelf's id, found by the shelf list."""
    tool = _update(
        "widget_update", "/widget/{id}/", {"shelf": _brief(["name", "slug"]), "default_shelf": _brief(["name"])}
    )
    found = wanted(_catalog(tool))
    assert found[("widget_update", "shelf")][:2] == (["shelf"], "id")
    assert "shelf_list" in found[("widget_update", "shelf")][2]
    assert found[("widget_update", "default_shelf")][:2] == (["shelf"], "id")


def test_a_parent_object_is_the_tools_own_resource():
    """`parent: {name, slug}` of a shelf update: another shelf."""
    found = wanted(_catalog(_update("shelf_update", "/shelf/{id}/", {"parent": _brief(["name", "slug"])})))
    assert found[("shelf_update", "parent")][:2] == (["shelf"], "id")


def test_data_objects_own_ids_and_the_tools_own_resource_want_nothing_by_this_rule():
    """`shelf: {name, colour}` requires data; `shelf: {id, name}` is wanted inside (as `shelf.id`), not as a whole;
    `widget: {name}` of the widget update is its own new data; an object without required fields says nothing."""
    data = _brief(["name", "colour"], {"colour": {"type": "string"}})
    own_id = _brief(["name"], {"id": {"type": "integer"}})
    found = wanted(
        _catalog(
            _update("widget_update", "/widget/{id}/", {"shelf": data, "widget": _brief(["name"])}),
            _update("widget_move", "/widget/{id}/move/", {"shelf": own_id}),
            _update("widget_tag", "/widget/{id}/tag/", {"shelf": _brief([])}),
        )
    )
    assert ("widget_update", "shelf") not in found
    assert ("widget_update", "widget") not in found
    assert ("widget_move", "shelf") not in found
    assert ("widget_tag", "shelf") not in found
