"""Integer fields named by a resource itself, no id word (kg_tools/deps/producers.py `_self_named_number`, lead C6 of
the spent11d study): a Django-REST-style foreign key `widget: integer` wants a widget's id; a bare `parent` the tool's
own resource; a paging or measure word (`page`, `count`, `port`) or a counted number wants nothing. Made-up tools."""

from __future__ import annotations

from kg_tools.deps.resources import schema_offers
from tests.support.made_up_ops import op, wanted


def _int(name: str, description: str = "", where: str = "body") -> dict:
    return {"name": name, "type": "integer", "description": description, "required": False, "in": where}


def _catalog(*extra):
    """Widgets, shelves (a parameter names them: `shelf` is no prefix word of the names) and shelf types."""
    return [
        op("widget_list", "GET", "/widget/", []),
        op("shelf_list", "GET", "/shelf/", []),
        op("shelf_type_list", "GET", "/shelf/type/", []),
        op("widget_place", "POST", "/widget/{id}/place/", [{"name": "shelf_id", "type": "integer", "in": "body"}]),
        *extra,
    ]


def test_an_integer_field_named_by_a_listed_resource_wants_its_id():
    """`widget` "Select widget", `shelf` "Where is this stored?", `default_shelf`: the listed resource's id."""
    found = wanted(
        _catalog(
            op(
                "widget_stock_update",
                "PUT",
                "/widget/stock/{id}/",
                [_int("widget", "Select widget"), _int("shelf", "Where is this stored?"), _int("default_shelf")],
            )
        )
    )
    assert found[("widget_stock_update", "widget")][:2] == (["widget"], "id")
    assert "widget_list" in found[("widget_stock_update", "widget")][2]
    assert found[("widget_stock_update", "shelf")][:2] == (["shelf"], "id")
    assert found[("widget_stock_update", "default_shelf")][:2] == (["shelf"], "id")


def test_a_bare_integer_parent_is_the_tools_own_resource_even_in_a_create():
    """`parent: integer` of `shelf_create` names an existing shelf, not the new one."""
    found = wanted(_catalog(op("shelf_create", "POST", "/shelf/", [_int("parent", "Parent shelf")])))
    assert found[("shelf_create", "parent")][:2] == (["shelf"], "id")
    assert "shelf_list" in found[("shelf_create", "parent")][2]


def test_measure_words_counted_numbers_and_other_words_want_nothing():
    """`page`, `count`, `version` are no things; "Number of widgets", "1=Incident, 2=Request" count or enumerate;
    `owner` is a user by another word; `max_widgets` has a word that is no resource of the catalog."""
    found = wanted(
        _catalog(
            op("user_list", "GET", "/user/", []),
            op(
                "widget_report",
                "GET",
                "/widget/report/",
                [
                    _int("page", "Page number", "query"),
                    _int("count", "", "query"),
                    _int("version", "The widget's version", "query"),
                    _int("widget", "Number of widgets to show", "query"),
                    _int("shelf", "1=Incident, 2=Request", "query"),
                    _int("owner", "Select Owner", "query"),
                    _int("max_widgets", "", "query"),
                ],
            ),
        )
    )
    assert not {k for k in found if k[0] == "widget_report"}


def test_a_string_or_enumerated_field_is_left_as_before():
    """A string `widget` is a noun want as before (not this rule); an integer with an enum is a choice."""
    enum = {**_int("shelf"), "enum": [1, 2, 3]}
    found = wanted(_catalog(op("widget_move", "POST", "/widget/{id}/move/", [{**enum, "name": "shelf"}])))
    assert ("widget_move", "shelf") not in found


def test_a_plural_or_a_field_inside_an_object_wants_nothing_by_this_rule():
    """`shelf_widgets: integer` counts widgets; `widget_detail.shelf` is a copy inside a shown object."""
    nested = {
        "name": "widget_detail",
        "type": "object",
        "in": "body",
        "properties": {"shelf": {"type": "integer"}},
    }
    found = wanted(_catalog(op("widget_stock_update", "PUT", "/widget/stock/{id}/", [_int("shelf_widgets"), nested])))
    assert ("widget_stock_update", "shelf_widgets") not in found
    assert ("widget_stock_update", "widget_detail.shelf") not in found


def test_a_django_rest_pk_is_the_listed_objects_id():
    """`results[].pk` of a paginated list of Shelf objects offers a shelf's id (Django REST's primary key)."""
    shelf = {"title": "Shelf", "type": "object", "properties": {"pk": {"type": "integer"}, "name": {"type": "string"}}}
    schema = {
        "type": "object",
        "properties": {"count": {"type": "integer"}, "results": {"type": "array", "items": shelf}},
    }
    offers = {(o.resource, o.field): o.path for o in schema_offers("shelf_list", schema)}
    assert offers[("shelf", "id")] == "results[].pk"


def test_an_integer_named_like_a_typed_choice_still_names_a_listed_thing():
    """`shelf_type: integer` is no choice word's value (`branch_type: string`) when the catalog lists shelf types."""
    found = wanted(_catalog(op("shelf_update", "PUT", "/shelf/{id}/", [_int("shelf_type", "Type of this shelf")])))
    assert "shelf_type_list" in found[("shelf_update", "shelf_type")][2]
