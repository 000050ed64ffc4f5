"""RPC-style paths, file-format suffixes, one-letter segments and bare usernames (kg_tools/deps/producers.py,
tenth session). Small made-up specs, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import Tool, created_resource, prepare, rpc_call, tool_kind, tool_offers
from tests.support.made_up_ops import listing, op, wanted

# a title of one word that schema titles otherwise drop as noise ("Collection")
SHELF = {"title": "Collection", "type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}


def _body(name: str, description: str = "") -> dict:
    return {"name": name, "type": "string", "description": description, "required": True, "in": "body"}


def _rpc() -> list[ToolInfo]:
    listed = {"type": "object", "properties": {"data": {"type": "array", "items": SHELF}, "pagination": {}}}
    one = {"type": "object", "properties": {"data": SHELF, "policies": {"type": "array", "items": {}}}}
    return [
        op("shelvesList", "POST", "/collections.list", [], output_schema=listed),
        op("shelvesInfo", "POST", "/collections.info", [_body("id", "Unique identifier.")], output_schema=one),
        op("shelvesLock", "POST", "/collections.lock", [_body("id")]),
        op("shelvesCreate", "POST", "/collections.create", [_body("name")], output_schema=one),
        op("shelvesAddMember", "POST", "/collections.add_member", [_body("id"), _body("memberId")]),
        op("shelvesMembers", "POST", "/collections.members", [_body("id")]),
    ]


def test_an_rpc_call_is_classified_by_its_action():
    """`POST /collections.info` reads one, `.list` and a plural noun (`.members`) list, `.create` creates, any
    other action (`.lock`) changes an existing one; a file format (`.json`) is no action."""
    tools = prepare(_rpc())
    kinds = {n: tool_kind(t) for n, t in tools.items()}
    assert kinds == {
        "shelvesList": "list",
        "shelvesInfo": "get",
        "shelvesLock": "change",
        "shelvesCreate": "create",
        "shelvesAddMember": "create",
        "shelvesMembers": "list",
    }
    assert rpc_call(Tool("x", "", [], http={"method": "GET", "path": "/latest.json"})) is None
    assert rpc_call(Tool("x", "", [], http={"method": "POST", "path": "/a/{id}.run"})) is None


def test_the_body_id_of_an_rpc_call_names_the_thing_its_path_is_about():
    """The `id` in the body of `POST /collections.info` is a collection's (a REST create's body `id` stays the
    object's), served by `.list`, whose `data[]` items titled with the noise word "Collection" are collections."""
    found = wanted(_rpc())
    for consumer in ("shelvesInfo", "shelvesLock", "shelvesAddMember", "shelvesMembers"):
        resources, field, producers = found[(consumer, "id")]
        assert resources[:1] == ["collection"] and field == "id"
        assert "shelvesList" in producers
    rest = [op("postShelf", "POST", "/shelves", [_body("id")]), op("listShelves", "GET", "/shelves", [])]
    assert ("postShelf", "id") not in wanted(rest)


def test_what_an_rpc_create_makes():
    """`.create` makes the thing of the path; `.add_member` a member (its `id` is the existing collection)."""
    tools = prepare(_rpc())
    for t in tools.values():
        t.kind = tool_kind(t)
    assert created_resource(tools["shelvesCreate"]) == "collection"
    assert created_resource(tools["shelvesAddMember"]) == "member"


USER = {
    "type": "object",
    "properties": {
        "user": {
            "title": "User",
            "type": "object",
            "properties": {"id": {"type": "integer"}, "username": {"type": "string"}},
        }
    },
}
USERS = {"type": "object", "properties": {"users": {"type": "array", "items": USER["properties"]["user"]}}}


def _path(name: str) -> dict:
    return {"name": name, "type": "string", "description": "", "required": True, "in": "path"}


def test_a_format_suffix_and_a_one_letter_segment_name_no_resource():
    """`GET /t/{id}.json` reads one topic (the suffix is a format, `t` no resource: the name says topic), and a
    bare `username` under `/u/` or `/messages/` is a user's."""
    tools = [
        op("getTopic", "GET", "/t/{id}.json", [_path("id")]),
        op(
            "listTopics",
            "GET",
            "/latest.json",
            [],
            output_schema=listing("topics", "Topic"),
        ),
        op("getUser", "GET", "/u/{username}.json", [_path("username")], output_schema=USER),
        op("listUsers", "GET", "/admin/users.json", [], output_schema=USERS),
        op("listUserMessages", "GET", "/messages/{username}.json", [_path("username")]),
    ]
    assert tool_kind(prepare(tools)["getTopic"]) == "get"
    found = wanted(tools)
    assert found[("getTopic", "id")][0] == ["topic"] and "listTopics" in found[("getTopic", "id")][2]
    assert found[("getUser", "username")][0][:1] == ["user"]
    resources, field, producers = found[("listUserMessages", "username")]
    assert resources[:1] == ["user"] and field == "username" and "listUsers" in producers


def test_a_list_of_plain_strings_lists_the_names_of_its_things():
    """`GET /zones` answering `["north", "south"]` lists zone names: a candidate of the `zone` every other
    operation filters by; a list of strings chosen from an enum is no list of names."""
    strings = {"type": "array", "items": {"type": "string"}}
    zone = {"name": "zone", "type": "string", "description": "Filters results by the zone.", "in": "query"}
    tools = [
        op("GetZones", "GET", "/zones", [], output_schema=strings),
        op("GetJob", "GET", "/job/{jobID}", [_path("jobID"), zone]),
        op("GetNode", "GET", "/node/{nodeID}", [_path("nodeID"), zone]),
    ]
    resources, _, producers = wanted(tools)[("GetJob", "zone")]
    assert resources == ["zone"] and "GetZones" in producers
    tools = prepare(tools)
    for t in tools.values():
        t.kind = tool_kind(t)
    (offer,) = tool_offers(tools["GetZones"])
    assert (offer.resource, offer.field, offer.source) == ("zone", "name", "schema")
    choices = {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}
    modes = prepare([op("GetModes", "GET", "/modes", [], output_schema=choices)])["GetModes"]
    modes.kind = tool_kind(modes)
    assert modes.kind == "list" and not any(o.source == "schema" for o in tool_offers(modes))


def test_a_login_and_a_plain_get_keep_their_kind_on_a_dotted_path():
    """An RPC path does not hide a login (`POST /auth.login`), and a GET whose last segment has a dot but no action
    (`/export.xlsx`, `/v1/stats.daily`) reads as any GET; a GET with a known action stays an RPC call."""
    token = {"type": "object", "properties": {"token": {"type": "string"}}}
    tools = prepare(
        [
            op("authLogin", "POST", "/auth.login", [_body("password")], output_schema=token),
            op("exportReport", "GET", "/export.xlsx", []),
            op("dailyStats", "GET", "/v1/stats.daily", []),
            op("usersInfo", "GET", "/users.info", []),
        ]
    )
    kinds = {n: tool_kind(t) for n, t in tools.items()}
    assert kinds == {"authLogin": "auth", "exportReport": "list", "dailyStats": "list", "usersInfo": "get"}
