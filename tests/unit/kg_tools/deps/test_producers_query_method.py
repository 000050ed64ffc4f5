"""OpenAPI 3.2's QUERY (a safe read whose body says what to find) reads as the GET it stands for: a collection's
QUERY lists it, an item's reads it (kg_tools/deps/producers.py `read_as`; docs/dependencies.md, twenty-fourth
session: a review of the twenty-third session's changes). Small made-up operations."""

from __future__ import annotations

from kg_tools.deps.producers import Tool, read_as, tool_kind
from tests.support.made_up_ops import candidate_triples, op

WIDGET = {"title": "Widget", "type": "object", "properties": {"id": {"type": "string"}, "label": {"type": "string"}}}
WIDGET_ID = {"name": "widgetId", "type": "string", "required": True, "in": "path"}


def test_a_query_reads_as_a_get():
    assert read_as("QUERY") == "GET" and read_as("POST") == "POST" and read_as("") == ""
    assert tool_kind(Tool("widgets", "", [], http={"method": "QUERY", "path": "/widgets"})) == "list"
    assert tool_kind(Tool("widget", "", [], http={"method": "QUERY", "path": "/widgets/{widgetId}"})) == "get"


def test_a_collections_query_provides_its_ids_as_its_get_would():
    def triples(method: str) -> set[tuple[str, str, str]]:
        tools = [
            op("findWidgets", method, "/widgets", [], output_schema={"type": "array", "items": WIDGET}),
            op("updateWidget", "PUT", "/widgets/{widgetId}", [WIDGET_ID]),
        ]
        return {t[:3] for t in candidate_triples(tools)}

    assert triples("QUERY") == triples("GET") == {("updateWidget", "widgetId", "findWidgets")}
