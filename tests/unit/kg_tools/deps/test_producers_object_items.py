"""A parameter declared an array of objects is not filled by the bare items of a list of strings (Kestra's
`filters: [{field, operation, value}]` and `GET /pebble/filters`, the names of template filters); an array of strings
still is (kg_tools/deps/producers.py `_objects_from_strings`; docs/dependencies.md, twenty-fourth session: a first
contact with unseen specs). Small made-up operations."""

from __future__ import annotations

from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import op

NAMES = {"type": "array", "items": {"type": "string"}}
FILTER = {"type": "object", "properties": {"field": {"type": "string"}, "value": {"type": "string"}}}


def _offers(items: dict) -> dict[str, str | None]:
    """The candidates of `searchWidgets(filters)` when the parameter's items are `items`: producer -> offer path."""
    schema = {"type": "object", "properties": {"filters": {"type": "array", "items": items}}}
    tools = [
        op("listFilters", "GET", "/filters", [], output_schema=NAMES),
        op(
            "searchWidgets",
            "GET",
            "/widgets/search",
            [{"name": "filters", "type": "array", "required": False, "in": "query"}],
            input_schema=schema,
        ),
    ]
    _, groups = candidate_groups(tools)
    return {
        c.producer.name: c.offer.path if c.offer else None for g in groups for c in g if c.want.parameter == "filters"
    }


def test_an_array_of_objects_takes_no_bare_string_items():
    assert _offers(FILTER).get("listFilters") is None


def test_an_array_of_strings_still_takes_them():
    assert _offers({"type": "string"}).get("listFilters") == "[]"
