"""Values written in the body of an HTTP write are not read from a reader named after them
(kg_tools/deps/producers.py `_written_value`; docs/dependencies.md, "values read as references on specs").
Small made-up specs, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.producers import Tool, Want, _written_value
from tests.support.made_up_ops import candidate_triples, described_tool, op

NAMES = {"type": "array", "items": {"type": "string"}}
ENTRIES = {"type": "array", "items": {"type": "object", "properties": {"weight": {"type": "integer"}}}}
IDS = {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}
READERS = {"get_label", "list_labels"}


def _write(name: str, method: str, path: str, schema: dict) -> object:
    """An operation whose body carries `widgetLabels` (kept as its input schema, as the OpenAPI loader keeps it)."""
    param = {"name": "widgetLabels", "type": "array", "description": "", "required": True, "in": "body"}
    inputs = {"type": "object", "properties": {"widgetLabels": schema}}
    return op(name, method, path, [param], input_schema=inputs)


def _named_readers(tools: list) -> set[tuple[str, str, str]]:
    """The candidates of two readers named after labels that give nothing a parameter could match (no output
    schema, a description that names nothing; the list's path is no collection of labels)."""
    pid = {"name": "id", "type": "string", "required": True, "in": "path"}
    readers = [
        op("get_label", "GET", "/labels/{id}", [pid], description="One entry."),
        op("list_labels", "GET", "/label-index", [], description="The index."),
    ]
    return {t for t in candidate_triples([*readers, *tools]) if t[2] in READERS and t[1] != "id"}


def test_a_list_of_strings_or_objects_in_a_write_body_has_no_reader_by_its_name_alone():
    """`POST /widgets {widgetLabels: [string]}`, `PUT /widgets/entries {widgetLabels: [{weight}]}`: values the
    caller writes, not the labels `get_label` or `list_labels` read. A list whose items may be numbers is one of
    ids; a query of a read and an MCP tool's argument keep the readers named after them."""
    query = {"name": "widgetLabels", "type": "array", "description": "", "required": True, "in": "query"}
    tools = [
        _write("create_widget", "POST", "/widgets", NAMES),
        _write("replace_entries", "PUT", "/widgets/entries", ENTRIES),
        _write("tag_widget", "POST", "/widgets/tag", IDS),
        op("find_widgets", "GET", "/widgets", [query]),
        described_tool("label_widget", "Label a widget.", [{"name": "widgetLabels", "type": "array"}]),
    ]
    found = _named_readers(tools)
    assert {c for c, _, _ in found} == {"tag_widget", "find_widgets", "label_widget"}
    assert {r for _, _, r in found} == READERS


def test_a_property_nested_in_a_write_body_is_a_written_value():
    """`events[].label_id` of a POST is the caller's; the same nested property of a GET, or of a tool without an
    HTTP operation, is not ruled on."""
    want = Want("events[].label_id", ["label"], "id", True, nested=True)
    post = Tool("send_events", "", [], http={"method": "POST", "path": "/events"})
    get = Tool("find_events", "", [], http={"method": "GET", "path": "/events"})
    assert _written_value(post, want)
    assert not _written_value(get, want)
    assert not _written_value(Tool("send_events", "", []), want)
