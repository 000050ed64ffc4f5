"""A GET of a collection's `create` or `new` (Rails' and Laravel's read of a blank object, not made yet) provides no
id; a POST there and an existing object's `/{id}/edit` still do (kg_tools/deps/producers.py `answers_a_blank`;
docs/dependencies.md, twenty-third session: a blank object is no provider). Small made-up operations."""

from __future__ import annotations

from kg_tools.deps.producers import Tool, answers_a_blank
from tests.support.made_up_ops import candidate_triples, op

WIDGET = {"title": "Widget", "type": "object", "properties": {"id": {"type": "string"}, "label": {"type": "string"}}}
WIDGET_ID = {"name": "widgetId", "type": "string", "required": True, "in": "path"}


def _get(path: str, description: str = "") -> Tool:
    return Tool("read", description, [], http={"method": "GET", "path": path})


def test_a_blank_widget_is_no_candidate_for_a_widget_id():
    """The same answer at `/widgets/default` (an existing widget) makes a candidate for every widget id, at
    `/widgets/create` it does not; the listing and a create at `POST /widgets/create` stay."""
    tools = [
        op("listWidgets", "GET", "/widgets", [], output_schema={"type": "array", "items": WIDGET}),
        op("getWidgetsCreate", "GET", "/widgets/create", [], output_schema=WIDGET, description="A blank widget."),
        op("getDefaultWidget", "GET", "/widgets/default", [], output_schema=WIDGET, description="The default widget."),
        op("createWidget", "POST", "/widgets/create", [], output_schema=WIDGET),
        op("updateWidget", "PUT", "/widgets/{widgetId}", [WIDGET_ID]),
    ]
    found = {t for t in candidate_triples(tools) if t[:2] == ("updateWidget", "widgetId")}
    assert {t[2] for t in found} == {"listWidgets", "getDefaultWidget", "createWidget"}


def test_a_create_read_needs_a_collection_and_a_get():
    assert answers_a_blank(_get("/api/v1/widgets/create"))
    assert answers_a_blank(_get("/widgets/create.json"))
    assert not answers_a_blank(Tool("make", "", [], http={"method": "POST", "path": "/widgets/create"}))
    assert not answers_a_blank(_get("/create"))  # no collection before it
    assert not answers_a_blank(_get("/widgets/{widgetId}/edit"))
    assert not answers_a_blank(Tool("widgets_create", "A blank widget.", []))  # no HTTP operation


def test_new_is_blank_only_when_its_description_says_so():
    """`/posts/new` may list the newest posts; `/r/{name}/new` is one thing's newest, never a form."""
    assert answers_a_blank(_get("/widgets/new", "Returns a blank widget with default values"))
    assert not answers_a_blank(_get("/posts/new", "The newest posts."))
    assert not answers_a_blank(_get("/boards/{board}/new", "A blank post."))
