"""An id of the resource a create-kind tool is about names an existing instance when the tool acts on one
(`start`, `follow`, a POST whose name has no known verb), not when it makes one or lets the caller choose the new id
(kg_tools/deps/producers.py, sixteenth session, "actions on an existing thing are not creates"). Small made-up
tools, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import offer_index, prepare, set_wants, tool_kind
from tests.support.made_up_ops import listing, op

WIDGETS = listing("widgets", "Widget")


def _tool(name: str, params: list[dict]) -> ToolInfo:
    return ToolInfo.from_raw({"name": name, "description": f"{name}.", "parameters": params})


def _id(name: str, description: str = "", required: bool = True) -> dict:
    return {"name": name, "type": "integer", "description": description, "required": required}


def _wants(tools: list[ToolInfo], name: str) -> dict[str, tuple[list[str], str]]:
    prepared = prepare(tools)
    for t in prepared.values():
        t.kind = tool_kind(t)
    set_wants(prepared, set(offer_index(prepared)))
    return {w.parameter: (w.resources, w.field) for w in prepared[name].wants}


def _lister() -> ToolInfo:
    return ToolInfo.from_raw(
        {"name": "list_widgets", "description": "List widgets.", "parameters": [], "output_schema": WIDGETS}
    )


def test_a_start_or_follow_of_a_resource_wants_an_existing_instance_of_it():
    """`widget_start(widget_id)` starts a widget that is there, `follow_widget(widget_id)` follows one: both read as
    creates, both ids want a widget."""
    tools = [_lister(), _tool("widget_start", [_id("widget_id", "The ID of the widget to start.")])]
    tools.append(_tool("follow_widget", [_id("widget_id", "Widget Id")]))
    assert _wants(tools, "widget_start")["widget_id"] == (["widget"], "id")
    assert _wants(tools, "follow_widget")["widget_id"] == (["widget"], "id")


def test_a_create_of_a_resource_takes_its_own_id_as_the_new_ones():
    """`create_widget(widget_id)`: the new widget's id, no other tool's output."""
    tools = [_lister(), _tool("create_widget", [_id("widget_id", "Widget ID", required=False)])]
    assert "widget_id" not in _wants(tools, "create_widget")


def test_an_id_the_caller_may_choose_stays_the_new_ones_whatever_the_verb():
    """A client-chosen id of the new thing ("Choose a custom ID", "Optional. The widget ID to use")."""
    tools = [
        _lister(),
        _tool("follow_widget", [_id("widget_id", "Unique Id. Choose a custom ID or generate a random one.")]),
        _tool("widget_start", [_id("widget_id", "Optional. The widget ID to use.", required=False)]),
    ]
    assert "widget_id" not in _wants(tools, "follow_widget")
    assert "widget_id" not in _wants(tools, "widget_start")


def test_a_post_named_without_a_verb_acts_on_the_instance_its_id_names():
    """`POST /refunds` named `RefundWidget(widget_id)`: a refund of an existing widget; `POST /widgets` named
    `createWidget` keeps its `widget_id` as the new one's."""
    body = {"name": "widget_id", "type": "integer", "description": "", "required": True, "in": "body"}
    tools = [
        op("listWidgets", "GET", "/widgets", [], output_schema=WIDGETS),
        op("RefundWidget", "POST", "/refunds", [body]),
        op("createWidget", "POST", "/widgets", [body]),
    ]
    assert _wants(tools, "RefundWidget")["widget_id"] == (["widget"], "id")
    assert "widget_id" not in _wants(tools, "createWidget")


def _name(name: str, description: str = "") -> dict:
    return {"name": name, "type": "string", "description": description, "required": True}


def test_a_start_wants_an_existing_instance_by_its_resource_named_name():
    """`start_widget(widget_name)` starts a widget that is there (twentieth session, an unseen server's
    `start_app(app_name)`); a bare `name` of a `write` stays the new one's, and a create's `widget_name` too."""
    tools = [
        _lister(),
        _tool("start_widget", [_name("widget_name", "Name of the widget")]),
        _tool("write_widget", [_name("name", "Name of the widget")]),
        _tool("create_widget", [_name("widget_name", "Name of the widget")]),
    ]
    assert _wants(tools, "start_widget")["widget_name"] == (["widget"], "name")
    assert "name" not in _wants(tools, "write_widget")
    assert "widget_name" not in _wants(tools, "create_widget")
