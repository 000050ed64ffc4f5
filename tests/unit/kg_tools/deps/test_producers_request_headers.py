"""A header that names the call itself (`X-Request-Id`, bunq's `X-Bunq-Client-Request-Id`, `X-Trace-Id`,
`X-Correlation-ID`) wants no instance: bunq's 480 operations each take `X-Bunq-Client-Request-Id`, "an ID with each
request that is unique", and its request responses and inquiries were offered for it, 807 wrong edges
(kg_tools/deps/producers.py `_request_token`; docs/dependencies.md, twenty-sixth session: a first contact with unseen
specs). Small made-up operations."""

from __future__ import annotations

from tests.support.made_up_ops import op, wanted

REQUESTS = {
    "type": "array",
    "items": {"title": "RequestResponse", "type": "object", "properties": {"id": {"type": "integer"}}},
}
USER = {"name": "userID", "type": "integer", "required": True, "in": "path"}
ITEM = {"name": "itemId", "type": "integer", "required": True, "in": "path"}


def _wants(name: str, where: str) -> dict:
    """The wants of six readers that each take `name` in `where` ("an ID with each request"), beside a list of
    request responses."""
    given = {"name": name, "type": "string", "required": False, "in": where}
    given["description"] = "This header must specify an ID with each request that is unique for the logged in user."
    tools = [
        op("listRequestResponses", "GET", "/user/{userID}/request-response", [USER, given], output_schema=REQUESTS)
    ]
    for kind in ("payment", "card", "invoice", "event", "schedule", "device"):
        tools.append(op(f"get_{kind}", "GET", f"/user/{{userID}}/{kind}/{{itemId}}", [USER, ITEM, given]))
    return wanted(tools)


def test_a_request_id_header_wants_no_instance():
    for name in ("X-Bunq-Client-Request-Id", "X-Request-Id", "X-Trace-Id", "X-Correlation-ID"):
        assert not [key for key in _wants(name, "header") if key[1] == name]


def test_the_same_name_in_the_query_still_wants_a_request():
    assert (
        "listRequestResponses"
        in _wants("X-Bunq-Client-Request-Id", "query")[("get_card", "X-Bunq-Client-Request-Id")][2]
    )
