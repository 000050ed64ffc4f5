"""Wants and candidates fixed on the new dev catalogs (kg_tools/deps/producers.py, resources.py; eighth session,
"misses on the new dev catalogs"). Small made-up specs, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import op, wanted


def _tool(name: str, description: str, params: list[dict], **spec) -> ToolInfo:
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params, **spec})


def _p(name: str, where: str | None, type_: str = "string", description: str = "", required: bool = True) -> dict:
    p = {"name": name, "type": type_, "description": description, "required": required}
    return {**p, "in": where} if where else p


def _items(title: str | None, *fields: str) -> dict:
    item: dict = {"type": "object", "properties": {f: {"type": "string"} for f in fields}}
    return {"type": "array", "items": {**item, "title": title} if title else item}


def test_a_getter_of_one_item_lists_nothing_under_it():
    """`{map_index}` right after `{task_id}`: the GET of `/tasks/{task_id}` returns one task, no collection of what
    `{map_index}` names; the GET of `/workflows/{namespace}` does list the workflows `{name}` names."""
    one = {"type": "object", "properties": {"task_id": {"type": "string"}, "state": {"type": "string"}}}
    many = {"type": "object", "properties": {"items": _items("workflow", "name")}}
    tools = [
        op("get_task", "GET", "/tasks/{task_id}", [_p("task_id", "path")], output_schema=one),
        op("get_mapped_task", "GET", "/tasks/{task_id}/{map_index}", [_p("task_id", "path"), _p("map_index", "path")]),
        op("list_workflows", "GET", "/workflows/{namespace}", [_p("namespace", "path")], output_schema=many),
        op("get_workflow", "GET", "/workflows/{namespace}/{name}", [_p("namespace", "path"), _p("name", "path")]),
    ]
    _, groups = candidate_groups(tools)
    path_lists = {(c.consumer.name, c.want.parameter, c.producer.name) for g in groups for c in g if c.path_list}
    assert ("get_mapped_task", "map_index", "get_task") not in path_lists
    assert ("get_workflow", "name", "list_workflows") in path_lists


def test_a_number_its_description_calls_a_resources_id_wants_that_resource():
    """`network: integer` "ID of an existing network to attach to" wants a network's id; a number whose description
    says id but not its name's noun (`offset`: "Start ID to read points from") wants nothing."""
    networks = {"type": "object", "properties": {"networks": _items("network", "id", "name")}}
    points = {"type": "object", "properties": {"points": _items("point", "id")}}
    tools = [
        op("list_networks", "GET", "/networks", [], output_schema=networks),
        op("list_offsets", "GET", "/offsets", [], output_schema={"type": "array", "items": _items("offset", "id")}),
        op("list_points", "GET", "/points", [], output_schema=points),
        op(
            "attach_to_network",
            "POST",
            "/servers/{id}/actions/attach",
            [_p("id", "path", "integer"), _p("network", "body", "integer", "ID of an existing network to attach to")],
        ),
        op("scroll", "POST", "/points/scroll", [_p("offset", "body", "integer", "Start ID to read points from")]),
    ]
    wants = wanted(tools)
    assert wants[("attach_to_network", "network")][:2] == (["network"], "id")
    assert "list_networks" in wants[("attach_to_network", "network")][2]
    assert ("scroll", "offset") not in wants


def test_an_idempotency_key_wants_nothing():
    """The `Idempotency-Key` header is a value the caller makes up, whatever its description's "of the status"."""
    statuses = {"type": "array", "items": _items("status", "id")}
    tools = [
        op("getStatuses", "GET", "/statuses", [], output_schema=statuses),
        op("createStatus", "POST", "/statuses", [_p("Idempotency-Key", "header", description="Key of the status")]),
    ]
    assert ("createStatus", "Idempotency-Key") not in wanted(tools)


def test_a_search_scoped_by_an_optional_instance_provides_none():
    """A search "through indices" that takes an optional `indexUid` searches inside one index: it returns documents,
    no indexes, so it is no candidate for another tool's index; the list of indexes is."""
    index = _p("indexUid", None, description="Index uid")
    tools = [
        _tool("search", "Search through the indices. Without indexUid it searches all indices.", [{**index}]),
        _tool("list-indexes", "List all indexes.", []),
        _tool("delete-index", "Delete an index.", [_p("uid", None, description="Index uid")]),
    ]
    tools[0].parameters[0]["required"] = False
    wants = wanted(tools)
    assert "list-indexes" in wants[("delete-index", "uid")][2]
    assert "search" not in wants[("delete-index", "uid")][2]


def test_the_owner_of_a_listing_is_no_participle():
    """`get_dataset_queued_events(uri)` lists the queued events of a dataset: its bare `uri` is the dataset's (the
    participle `queued` before the listed noun names no owner)."""
    datasets = {"type": "object", "properties": {"datasets": _items("dataset", "uri")}}
    tools = [
        _tool("get_datasets", "List datasets.", [], output_schema=datasets),
        _tool("get_dataset_queued_events", "Get queued events of a dataset.", [_p("uri", None)]),
    ]
    wants = wanted(tools)
    assert wants[("get_dataset_queued_events", "uri")][0][0] == "dataset"
    assert "get_datasets" in wants[("get_dataset_queued_events", "uri")][2]


def test_a_list_of_the_collection_inside_another_instance_is_kept_beside_its_list():
    """`GET /owners/{owner_id}/boxes` lists a part of the boxes `DELETE /boxes/{box_id}` addresses: the rules keep it
    beside `GET /boxes` (fourteenth session). Not under a static qualifier (`GET /bin/boxes`), and not when its items
    name the box by a `box_id` of another object (a membership)."""
    box = {"type": "array", "items": {"type": "object", "title": "Box", "properties": {"id": {"type": "string"}}}}
    member = {
        "type": "object",
        "properties": {"boxes": {"type": "array", "items": {"type": "object", "properties": {"box_id": {}}}}},
    }
    tools = [
        op("list_boxes", "GET", "/boxes", [], output_schema=box),
        op("list_owner_boxes", "GET", "/owners/{owner_id}/boxes", [_p("owner_id", "path")], output_schema=box),
        op("list_binned_boxes", "GET", "/bin/boxes", [], output_schema=box),
        op("list_user_boxes", "GET", "/users/{user_id}/boxes", [_p("user_id", "path")], output_schema=member),
        op("delete_box", "DELETE", "/boxes/{box_id}", [_p("box_id", "path")]),
    ]
    _, groups = candidate_groups(tools)
    kept = {c.producer.name for g in groups for c in g if c.consumer.name == "delete_box" and c.kept_by_rules}
    assert kept == {"list_boxes", "list_owner_boxes"}
