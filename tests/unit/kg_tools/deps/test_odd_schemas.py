"""Odd but valid schemas never stop inference for a catalog (review of the eleventh session): deep `$ref` chains
in an output schema, an array parameter made of itself, malformed HAL `_links`, boolean schemas in a bulk body; and
the shape rules stay in their own setting (`elements` / `attributes` outside HAL and JSON:API, a copied name)."""

from __future__ import annotations

import time

from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.offline import Examples, ToolInfo
from kg_tools.deps.producers import nested_parameters, prepare
from kg_tools.deps.resources import schema_offers
from tests.support.made_up_ops import op, wanted


def _mcp(name: str, params: list[dict], out: dict | None = None, description: str = "") -> ToolInfo:
    raw = {"name": name, "description": description or name.replace("_", " "), "parameters": params}
    return ToolInfo.from_raw(raw | ({"output_schema": out} if out else {}))


def _infer(tools: list[ToolInfo]):
    return infer_catalog(tools, None, Examples([]), min_confidence=0.2, catalog="odd")


def test_a_long_chain_of_refs_in_an_output_schema_is_read_without_recursion_error():
    defs = {f"D{i}": {"type": "object", "properties": {"next": {"$ref": f"#/$defs/D{i + 1}"}}} for i in range(200)}
    defs["D200"] = {"type": "object", "properties": {"id": {"type": "string"}}}
    out = {"$defs": defs, "type": "object", "properties": {"head": {"$ref": "#/$defs/D0"}}}
    _infer([_mcp("list_links", [], out), _mcp("get_link", [{"name": "link_id", "type": "string"}])])


def test_an_array_parameter_made_of_itself_is_read_without_recursion_error():
    tree = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/Tree"}}]}
    param = {"name": "tree", "type": "array", "items": {"$ref": "#/$defs/Tree"}, "$defs": {"Tree": tree}}
    _infer([_mcp("plant_tree", [param]), _mcp("list_trees", [])])


def test_malformed_hal_links_and_odd_bodies_are_skipped():
    for links in ({"properties": ["self"]}, {"properties": {"self": {"properties": 3}}}, {"properties": "x"}):
        schema = {"type": "object", "properties": {"id": {"type": "string"}, "_links": links}}
        assert schema_offers("t", schema) is not None
    body = {"name": "body", "in": "body", "type": "array", "items": {"type": "object"}}
    tools = [
        op("update_sites", "PATCH", "/sites/", [body], input_schema={"properties": {"body": True}}),
        op("post_link", "POST", "/links", [{"name": "_links.__.href", "in": "body", "type": "string"}]),
        op("list_sites", "GET", "/sites", []),
    ]
    _infer(tools)


def test_elements_and_attributes_outside_hal_and_json_api_are_resources_of_their_own():
    """A scene's `elements[]` and a product's `attributes[]` are elements and attributes (HAL's
    `_embedded.elements` and JSON:API's `attributes` are the object's own)."""
    scene = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "elements": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}},
        },
    }
    offers = {(o.resource, o.field): o.path for o in schema_offers("get_scene", scene)}
    assert offers[("element", "id")] == "elements[].id"
    product = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "attributes": {
                "type": "array",
                "items": {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}},
            },
        },
    }
    offers = {(o.resource, o.field): o.path for o in schema_offers("get_product", product)}
    assert offers[("attribute", "id")] == "attributes[].id"


def test_a_name_field_of_entries_without_a_name_of_their_own_is_theirs():
    """`entries[].file_name` of a directory listing names files (no other name beside it): a source of file names;
    `alarms[].gauge_name` beside the alarm's own `alarm_name` is a copy (test_producers_mcp)."""
    entry = {"type": "object", "properties": {"file_name": {"type": "string"}, "size": {"type": "integer"}}}
    out = {"type": "object", "properties": {"entries": {"type": "array", "items": entry}}}
    tools = [
        _mcp("list_directory", [{"name": "path", "type": "string"}], out, "List a directory's entries"),
        _mcp("read_file", [{"name": "file_name", "type": "string", "description": "The file"}], None, "Read a file"),
    ]
    assert "list_directory" in wanted(tools)[("read_file", "file_name")][2]


def test_a_parent_given_as_a_resource_name_is_a_container_not_a_thing_of_the_same_kind():
    """AIP style: `list_instances(parent: "projects/{project}/locations/{location}")` names a location, not an
    instance (a `parent_id` of a task is a task: test_producers_mcp)."""
    parent = {"name": "parent", "type": "string", "description": "Format: projects/{project}/locations/{location}"}
    out = {
        "type": "object",
        "properties": {
            "instances": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}
        },
    }
    tools = [_mcp("list_instances", [parent], out, "List instances"), _mcp("search_instances", [], out, "Search")]
    assert ("list_instances", "parent") not in wanted(tools)


def test_sole_prefixed_id_of_an_output_is_its_handle():
    # a connect tool's output: no id of its own, one `<noun>Id`: the handle it returns (primary, no reference)
    out = {"type": "object", "properties": {"connectionId": {"type": "string"}, "message": {"type": "string"}}}
    (offer,) = [o for o in schema_offers("connect", out) if o.resource == "connection"]
    assert offer.primary and not offer.reference
    # two of them make a link; an own id, or one nested deeper, keeps them references
    link = {"type": "object", "properties": {"userId": {"type": "string"}, "projectId": {"type": "string"}}}
    owned = {"type": "object", "properties": {"id": {"type": "string"}, "userId": {"type": "string"}}}
    nested = {"type": "object", "properties": {"items": {"type": "array", "items": out}}}
    for schema, prefixed in ((link, {"user", "project"}), (owned, {"user"}), (nested, {"connection"})):
        offers = [o for o in schema_offers("t", schema) if o.resource in prefixed]
        assert len(offers) == len(prefixed) and all(o.reference for o in offers)


def test_an_operation_enum_that_is_not_a_list_is_skipped():
    """`operation: {enum: 5}` (or `true`, a string) is no list of operations: nothing is listed, nothing stops."""
    for enum in (5, True, "get-teams", {"get-teams": 1}):
        schema = {"type": "object", "properties": {"operation": {"enum": enum}}}
        multi = ToolInfo.from_raw(
            {"name": "teams_tool", "description": "", "parameters": [{"name": "operation"}], "input_schema": schema}
        )
        _infer([multi, _mcp("get_team", [{"name": "team_id", "type": "string", "required": True}])])


def test_many_alternatives_sharing_a_params_schema_are_read_in_linear_time():
    """Four levels of 40 alternatives, each `{operation, params: $ref to the level below}` (a JSON schema of 160
    members): each object is read once per path, not once per route to it (40**4 walks)."""
    defs: dict = {"D0": {"type": "object", "properties": {"team_id": {"type": "string"}}}}
    for level in range(1, 5):
        branch = {"params": {"$ref": f"#/$defs/D{level - 1}"}}
        defs[f"D{level}"] = {
            "anyOf": [
                {"type": "object", "properties": branch | {"operation": {"const": f"get-thing{i}"}}} for i in range(40)
            ]
        }
    schema = {"type": "object", "properties": {"req": {"$ref": "#/$defs/D4"}}, "$defs": defs}
    multi = ToolInfo.from_raw(
        {"name": "multi", "description": "", "parameters": [{"name": "req", "type": "object"}], "input_schema": schema}
    )
    [tool] = prepare([multi]).values()
    started = time.perf_counter()
    assert "req.params.params.params.team_id" not in {p["path"] for p in nested_parameters(tool)}  # past NESTED_DEPTH
    assert time.perf_counter() - started < 1.0


def test_an_output_whose_properties_are_a_list_is_read_as_no_list():
    """A server's malformed output schema (`properties: ["id"]`, `allOf: [{properties: 3}]`) stops nothing."""
    for out in ({"properties": ["id"]}, {"allOf": [{"properties": 3}], "properties": {"items": {"type": "array"}}}):
        _infer([_mcp("get_things", [], out), _mcp("get_thing", [{"name": "thing_id", "type": "string"}])])


MALFORMED = [5, {}, ["id"], "id", True, None, [5], [["x"]], {"a": 5}]
KEYWORDS = ["anyOf", "oneOf", "allOf", "not", "properties", "items", "required", "enum", "type", "$ref", "prefixItems"]


def test_malformed_keywords_anywhere_never_raise_in_inference():
    """What a JSON catalog or a gateway's upstream may hold: inference reads the schemas without the malformed
    keywords (`anyOf: 5`, `required: "id"` ...) at the top, in a property and in an array's items."""
    for keyword in KEYWORDS:
        for value in MALFORMED:
            for at in ("top", "property", "items"):
                out = {"type": "object", "properties": {"id": {"type": "string"}, "users": {"type": "array"}}}
                users = {"type": "object", "properties": {"user_id": {"type": "string"}}, "required": ["user_id"]}
                out["properties"]["users"]["items"] = users
                node = {"top": out, "property": out["properties"]["id"], "items": users}[at]
                node[keyword] = value
                wanted = [{"name": "user_id", "type": "string", "required": True}]
                tools = [
                    ToolInfo.from_raw({"name": "list_users", "description": "List users", "output_schema": out}),
                    ToolInfo.from_raw(
                        {"name": "get_user", "description": "Get a user", "parameters": wanted, "input_schema": out}
                    ),
                    op("get_user_http", "GET", "/users/{user_id}", wanted, output_schema=out, input_schema=out),
                ]
                _infer(tools)
