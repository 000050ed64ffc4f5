"""Tools that run one of several operations, and outputs that echo their input (twelfth session, "MCP servers below
recall 0.5"). Small made-up tool lists, no names of real ones."""

from __future__ import annotations

from kg_tools.deps import producers
from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups, nested_parameters, prepare
from kg_tools.deps.resources import singular
from tests.support.made_up_ops import op, wanted


def _branch(operation: str, params: dict) -> dict:
    return {
        "type": "object",
        "properties": {
            "operation": {"type": "string", "const": operation},
            "params": {"type": "object", "properties": params},
        },
        "required": ["operation"],
    }


def _multiplexed(name: str, *branches: dict) -> ToolInfo:
    """A tool whose one argument is an object of alternatives, each an operation and its `params`."""
    chosen = {"anyOf": list(branches)} if len(branches) > 1 else branches[0]
    schema = {"type": "object", "properties": {"select": chosen}, "required": ["select"]}
    return ToolInfo.from_raw(
        {
            "name": name,
            "description": "Select and run one of the following operations",
            "parameters": [{"name": "select", "type": "object", "required": True}],
            "input_schema": schema,
            "annotations": {"readOnlyHint": True},
        }
    )


ID = {"type": "string"}


def test_every_alternative_s_params_are_read_not_only_the_first():
    """`select` is `{operation: "get-crate", params: {crateId}}` or `{operation: "get-crate-in-port", params: {portId,
    crateId}}`: the second alternative's `params.portId` is a nested parameter too."""
    tool = _multiplexed(
        "crate-reader", _branch("get-crate", {"crateId": ID}), _branch("get-crate-in-port", {"portId": ID})
    )
    [t] = prepare([tool]).values()
    paths = {p["path"] for p in nested_parameters(t)}
    assert {"select.params.crateId", "select.params.portId"} <= paths


def test_a_listing_operation_of_a_multiplexed_tool_offers_what_it_lists():
    """`dock-services-reader` runs `get-ports` or `get-port(params.portId)`: it lists ports, so it is a candidate for
    another tool's `params.portId`, though it takes one itself in its other operation; a reader whose operations list
    nothing (`get-crate`) offers nothing."""
    tools = [
        _multiplexed("dock-services-reader", _branch("get-port", {"portId": ID}), _branch("get-ports", {})),
        _multiplexed("load-services-reader", _branch("get-crate", {"crateId": ID, "portId": ID})),
    ]
    found = wanted(tools)
    assert found[("load-services-reader", "select.params.portId")][2] == {"dock-services-reader"}
    assert ("load-services-reader", "select.params.crateId") not in found


def test_an_output_s_id_of_the_thing_its_path_takes_is_an_echo():
    """`GET /crates/{crateName}/scale` -> `{CrateID, Count}`: the CrateID is the crate it was given, no offer of crate
    ids (the tool stays a candidate named after crates, as any `GetCrate…`); `GET /crates` -> `[{ID}]` offers them."""
    listed = {"type": "array", "items": {"type": "object", "properties": {"ID": ID, "Name": ID}}}
    status = {"type": "object", "properties": {"CrateID": ID, "Count": {"type": "integer"}}}
    name = {"name": "crateName", "in": "path", "required": True, "type": "string", "description": "The crate name"}
    body = {"name": "CrateID", "in": "body", "required": True, "type": "string", "description": "The crate ID"}
    tools = [
        op("GetCrates", "GET", "/crates", [], output_schema=listed),
        op("GetCrateScale", "GET", "/crates/{crateName}/scale", [name], output_schema=status),
        op("PostCrateEvaluate", "POST", "/crate/{crateName}/evaluate", [name, body]),
    ]
    _, groups = candidate_groups(tools)
    found = {c.producer.name: c for g in groups for c in g if c.want.parameter == "CrateID"}
    assert found["GetCrates"].offer is not None
    assert found["GetCrateScale"].offer is None


def test_plurals_in_ves_of_nouns_in_f():
    assert singular("shelves") == "shelf"
    assert singular("halves") == "half"
    assert singular("archives") == "archive"
    assert singular("drives") == "drive"


def test_operations_of_alternatives_written_as_refs_are_read():
    """Pydantic writes a tool of several operations as `oneOf` of `$ref`s to `$defs` (a discriminated union): the
    listing operation behind a `$ref` offers what it lists, as an inline one does."""
    defs = {"GetPort": _branch("get-port", {"portId": ID}), "GetPorts": _branch("get-ports", {})}
    chosen = {"oneOf": [{"$ref": "#/$defs/GetPort"}, {"$ref": "#/$defs/GetPorts"}]}
    schema = {"type": "object", "properties": {"select": chosen}, "required": ["select"], "$defs": defs}
    reader = ToolInfo.from_raw(
        {
            "name": "dock-services-reader",
            "description": "Select and run one of the following operations",
            "parameters": [{"name": "select", "type": "object", "required": True}],
            "input_schema": schema,
        }
    )
    tools = [reader, _multiplexed("load-services-reader", _branch("get-crate", {"crateId": ID, "portId": ID}))]
    assert wanted(tools)[("load-services-reader", "select.params.portId")][2] == {"dock-services-reader"}


def test_each_tool_s_operations_are_read_once(monkeypatch):
    """Forty readers that all list ports and take a `params.portId`: each one's operations are read once, not once
    per other reader it is a candidate for (quadratic in a large server)."""
    reads: list[str] = []
    read = producers.read_operations
    monkeypatch.setattr(producers, "read_operations", lambda tool: reads.append(tool.name) or read(tool))
    tools = [
        _multiplexed(f"reader-{i}", _branch("get-port", {"portId": ID}), _branch("get-ports", {})) for i in range(40)
    ]
    assert len(wanted(tools)[("reader-0", "select.params.portId")][2]) == 39
    assert len(reads) == len(set(reads)) == 40


def test_an_optional_action_filter_lists_nothing():
    """`list_audit_events(action?: list_projects | get_user | …)` filters events by what was done: it lists no projects
    and no users; a required `action` (`manage_ports(action: list_ports | get_port)`) chooses what the tool does."""

    def tool(name: str, required: list[str]) -> ToolInfo:
        action = {"type": "string", "enum": ["list_ports", "get_port", "list_users"]}
        schema = {"type": "object", "properties": {"action": action, "portId": ID}, "required": required}
        params = [{"name": "action", "type": "string"}, {"name": "portId", "type": "string"}]
        return ToolInfo.from_raw({"name": name, "description": name, "parameters": params, "input_schema": schema})

    tools = prepare([tool("list_audit_events", []), tool("manage_ports", ["action"])])
    assert producers._operations_listed(tools["list_audit_events"]) == []
    assert producers._operations_listed(tools["manage_ports"]) == ["port", "user"]


def test_the_id_of_the_thing_a_path_ends_at_is_its_own_not_an_echo():
    """`GET /crates/by-name/{crateName}` -> `{CrateID, CrateName}` is the crate itself, found by its name: its CrateID
    is a source of crate ids (a sub-resource's `/crates/{crateName}/scale` -> `{CrateID}` echoes)."""
    crate = {"type": "object", "properties": {"CrateID": ID, "CrateName": ID}}
    name = {"name": "crateName", "in": "path", "required": True, "type": "string", "description": "The crate name"}
    crate_id = {"name": "crateId", "in": "path", "required": True, "type": "string", "description": "The crate ID"}
    tools = [
        op("GetCrateByName", "GET", "/crates/by-name/{crateName}", [name], output_schema=crate),
        op("DeleteCrate", "DELETE", "/crates/{crateId}", [crate_id]),
    ]
    _, groups = candidate_groups(tools)
    [found] = [c for g in groups for c in g if c.producer.name == "GetCrateByName"]
    assert found.offer is not None


def test_a_path_parameter_with_listed_values_is_a_choice_not_an_instance():
    """`GET /reports/devices/{type}` with `type` in [xlsx, mail] (beside a query `type` of the same name, as specs
    repeat it) wants no device: a value the schema enumerates comes from no other tool; an `{event_id}` in [latest,
    oldest] still wants an event."""
    choice = {"name": "type", "type": "string", "in": "path", "required": True, "enum": ["xlsx", "mail"]}
    query = {"name": "type", "type": "array", "in": "query", "items": {"type": "string"}}
    tools = [
        op("getDevices", "GET", "/devices", []),
        op("getReportsDevicesType", "GET", "/reports/devices/{type}", [choice]),
        op("getReportsEventsType", "GET", "/reports/events/{type}", [choice, query]),
        op("getDevice", "GET", "/devices/{id}", [{"name": "id", "type": "integer", "in": "path", "required": True}]),
        op("getDeviceEvent", "GET", "/devices/{id}/events/{event_id}", [{**choice, "name": "event_id"}]),
        op("listDeviceEvents", "GET", "/devices/{id}/events", []),
    ]
    found = wanted(tools)
    assert ("getReportsDevicesType", "type") not in found
    assert ("getReportsEventsType", "type") not in found
    assert "getDevices" in found[("getDevice", "id")][2]
    assert "listDeviceEvents" in found[("getDeviceEvent", "event_id")][2]  # an id's keywords (`latest`) beside ids
