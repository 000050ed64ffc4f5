"""A `url`/`uri` field whose schema declares a web address (`format: uri`) is a value the caller gives (a webhook's
target, an image, a homepage), neither wanted from nor offered by another tool (kg_tools/deps/resources.py
`web_address`; docs/dependencies.md, twenty-first session: declared types that are not the offered id). Made-up tools."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import nested_parameters, parameter_wants, prepare
from kg_tools.deps.resources import schema_offers, web_address

URI = {"type": "string", "format": "uri"}


def _want(name: str, schema: dict, known: set[str]):
    """What `update_app(name)` wants, its argument schema declaring `schema` for it."""
    parameter = {"name": name, "type": "string", "description": "", "required": False}
    raw = {
        "name": "update_app",
        "description": "Update an app.",
        "parameters": [parameter],
        "input_schema": {"type": "object", "properties": {name: schema}},
    }
    tool = prepare([ToolInfo.from_raw(raw)])["update_app"]
    return parameter_wants(tool, parameter, known)


def test_a_declared_web_address_is_neither_wanted_nor_offered():
    """`webhook_url` wants a webhook's url until its schema says `format: uri`; a webhook's `url` so declared is not
    offered, its `id` is."""
    plain = _want("webhook_url", {"type": "string"}, {"webhook", "app"})
    assert plain and (plain.resources, plain.field) == (["webhook"], "url")
    assert _want("webhook_url", URI, {"webhook", "app"}) is None
    webhook = {"type": "object", "title": "Webhook", "properties": {"id": {"type": "string"}, "url": URI}}
    assert {(o.resource, o.field) for o in schema_offers("get_webhook", webhook)} == {("webhook", "id")}
    undeclared = {**webhook, "properties": {"id": {"type": "string"}, "url": {"type": "string"}}}
    assert ("webhook", "url") in {(o.resource, o.field) for o in schema_offers("get_webhook", undeclared)}


def test_a_nullable_or_nested_web_address_is_read_too():
    """A nullable `anyOf` member declares it as well; a nested property keeps the mark for parameter_wants."""
    assert web_address({"anyOf": [URI, {"type": "null"}]})
    assert not web_address({"type": "string", "format": "uuid"}) and not web_address(None)
    config = {"type": "object", "properties": {"url": URI, "id": {"type": "string"}}}
    raw = {
        "name": "create_hook",
        "description": "Create a hook.",
        "parameters": [{"name": "config", "type": "object", "description": "", "required": True}],
        "input_schema": {"type": "object", "properties": {"config": config}},
    }
    leaves = {p["path"]: p for p in nested_parameters(prepare([ToolInfo.from_raw(raw)])["create_hook"])}
    assert leaves["config.url"].get("web_address") and not leaves["config.id"].get("web_address")
