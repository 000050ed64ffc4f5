"""A schema title's resource ends at `by`, `from` or `with`: what follows qualifies it (resources.schema_resource)."""

from kg_tools.deps.resources import schema_offers, schema_resource


def test_a_title_x_from_y_names_x():
    assert schema_resource("Ytd-Benefit-Amounts-From-Different-Company") == "amount"
    assert schema_resource("invoice_from_timeOutput") == "invoice"
    assert schema_resource("Books_by_LibraryModel") == "book"


def test_a_leading_from_is_no_cut():
    assert schema_resource("FromAddress") == "address"


def test_a_list_of_x_from_y_offers_x_ids_not_y_ids():
    item = {"title": "Widget-Counts-From-Other-Shop", "type": "object", "properties": {"uuid": {"type": "string"}}}
    offers = schema_offers("list_counts", {"type": "array", "items": item})
    assert [(o.resource, o.field, o.path) for o in offers] == [("count", "id", "[].uuid")]


def test_a_title_x_with_y_names_x():
    assert schema_resource("SessionWithTraces") == "session"
    assert schema_resource("DeviceWithConfigContext") == "device"
    assert schema_resource("conversations.v1.conversation_with_participants") == "conversation"


def test_a_leading_with_is_no_cut():
    assert schema_resource("WithdrawalRequest") == "withdrawal"


def test_a_union_member_x_with_expanded_y_offers_no_y_ids():
    """`oneOf: [Comment, CommentWithExpandedUser]` (Label Studio's comments): the items are comments either way."""
    members = [
        {"title": t, "type": "object", "properties": {"id": {"type": "integer"}}}
        for t in ("Comment", "CommentWithExpandedUser")
    ]
    offers = schema_offers("api_comments_list", {"type": "array", "items": {"oneOf": members}})
    assert {o.resource for o in offers} == {"comment"}
