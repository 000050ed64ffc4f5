"""A `writeOnly` property of an output schema is offered by nobody: OpenAPI 3.0 says it "SHOULD NOT be sent as part of
the response" (JSON Schema: present in requests only), so a response schema reused from the request model (a webhook's
`signingSecret`, a member's `organization_id` set on create) hands out no value of it; the output schema itself keeps
it, as the spec documents it (docs/dependencies.md, twenty-seventh session: read-only properties of request bodies).
Real shapes: OneSignal's app (`organization_id` writeOnly), a memos webhook (`signingSecret`)."""

from __future__ import annotations

from kg_tools.deps.resources import schema_offers
from tests.support.made_up_ops import op, wanted

APP = {
    "type": "object",
    "title": "App",
    "properties": {
        "id": {"type": "string", "readOnly": True},
        "name": {"type": "string"},
        "organization_id": {"type": "string", "writeOnly": True, "description": "The organization to create it in."},
        "owner": {"type": "object", "writeOnly": True, "properties": {"user_id": {"type": "string"}}},
    },
}


def test_write_only_fields_are_not_offered():
    offers = {(o.resource, o.field): o.path for o in schema_offers("get_app", APP)}
    assert offers == {("app", "id"): "id", ("app", "name"): "name"}  # no `organization_id`, nothing below `owner`


def test_a_write_only_field_of_a_list_gives_no_provider():
    listing = {"type": "array", "items": APP}
    param = {"name": "organization_id", "type": "string", "required": True, "in": "path"}
    found = wanted(
        [
            op("get_organization", "GET", "/organizations/{organization_id}", [param]),
            op("get_apps", "GET", "/apps", [], output_schema=listing),
        ]
    )
    assert "get_apps" not in found.get(("get_organization", "organization_id"), (None, None, []))[2]


def test_a_write_only_flag_on_an_all_of_member_counts():
    """The OpenAPI 3.0 idiom for flagging a `$ref`'d property, `allOf: [$ref, {writeOnly: true}]`, as the loader reads
    `readOnly` (loaders/json_schema.py `read_only`): the property is offered by nobody; an `allOf` without it is."""
    order = {
        "type": "object",
        "title": "Order",
        "properties": {
            "id": {"type": "string"},
            "customer_id": {"allOf": [{"title": "CustomerId", "type": "string"}, {"writeOnly": True}]},
            "shop_id": {"allOf": [{"title": "ShopId", "type": "string"}]},
        },
    }
    offers = {(o.resource, o.field): o.path for o in schema_offers("get_order", order)}
    assert offers == {("order", "id"): "id", ("shop", "id"): "shop_id"}
