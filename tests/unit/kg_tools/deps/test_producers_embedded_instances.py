"""The ids inside an embedded instance's fields are its own data, not wanted: Exoscale's `PUT
/security-group/{id}:attach` takes `{instance: $ref instance}` (the model's `id` read-only, left out by the loader
and named in `x-read-only`), only the instance's id is read, yet its `snapshots[].id`, `deploy-target.id` ... got
providers (kg_tools/deps/producers.py `nested_parameters`, `_nested_want`; docs/dependencies.md, twenty-sixth
session: embedded resources and sibling kinds). Small made-up operations."""

from __future__ import annotations

from tests.support.made_up_ops import listing, op, wanted

REF = {"type": "object", "properties": {"id": {"type": "string", "description": "The id."}}}


def _instance(own_id: bool) -> dict:
    """An instance model as a body property: its `id` kept (`own_id`) or left out as read-only."""
    props = {"name": {"type": "string"}, "snapshots": {"type": "array", "items": REF}, "deploy-target": REF}
    if own_id:
        return {"type": "object", "properties": {"id": {"type": "string"}, **props}}
    return {"type": "object", "properties": props, "x-read-only": ["id", "state"]}


def _wants(method: str, path: str, body: dict, name: str = "instance") -> dict:
    params = [{"name": "id", "type": "string", "required": True, "in": "path"}]
    params.append({"name": name, "type": "object", "description": "Compute instance", "in": "body"})
    schema = {"properties": {"id": {"type": "string"}, name: body}}
    return wanted(
        [
            op("consumer", method, path, params, input_schema=schema),
            op("list-snapshots", "GET", "/snapshot", [], output_schema=listing("snapshots", "Snapshot", "string")),
            op("list-deploy-targets", "GET", "/deploy-target", [], output_schema=listing("targets", "DeployTarget")),
            op("list-instances", "GET", "/instance", [], output_schema=listing("instances", "Instance", "string")),
        ]
    )


def test_the_ids_inside_an_embedded_instance_are_not_wanted():
    for own_id in (True, False):
        found = _wants("PUT", "/security-group/{id}:attach", _instance(own_id))
        assert ("consumer", "instance.snapshots[].id") not in found
        assert ("consumer", "instance.deploy-target.id") not in found


def test_the_consumer_s_own_instance_keeps_its_references():
    """`PUT /instance/{id}` with `{instance: {...}}`: the body is the resource itself, its references wanted."""
    found = _wants("PUT", "/instance/{id}", _instance(False))
    assert "list-snapshots" in found[("consumer", "instance.snapshots[].id")][2]
    assert "list-deploy-targets" in found[("consumer", "instance.deploy-target.id")][2]


def test_an_object_without_an_id_of_its_own_keeps_its_references():
    """A plain request object (`{target: {snapshots[], deploy-target}}`, no `id` kept nor read-only) is no instance."""
    body = _instance(False)
    body = {k: v for k, v in body.items() if k != "x-read-only"}
    found = _wants("PUT", "/security-group/{id}:attach", body, name="target")
    assert "list-deploy-targets" in found[("consumer", "target.deploy-target.id")][2]


def test_json_api_relationships_stay_references():
    """`data: {id, relationships: {snapshots: {data: {id}}}}`: a JSON:API reference holder is no instance data."""
    related = {"type": "object", "properties": {"data": REF}}
    body = {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "relationships": {"type": "object", "properties": {"snapshots": related}},
        },
    }
    found = _wants("PATCH", "/security-group/{id}", body, name="data")
    assert "list-snapshots" in found[("consumer", "data.relationships.snapshots.data.id")][2]


def test_a_data_envelope_with_a_read_only_id_is_the_request_itself():
    """Asana's `{data: ProjectRequest}` (its `gid` read-only) is the request, not an embedded instance."""
    found = _wants("PUT", "/security-group/{id}:attach", _instance(False), name="data")
    assert "list-deploy-targets" in found[("consumer", "data.deploy-target.id")][2]


def test_a_request_posted_under_a_wrapper_begun_by_its_collection_is_no_embedded_instance():
    """Twenty-seventh session (review): `POST /orders` with `{order_request: $ref Order}` (the order's `id`
    read-only) is the new order under a wrapper: its described `customer_id` is wanted, as it was before the
    read-only rule (and as `{order: …}`). The wrapper's words begin with the path's collection (`order_request`,
    `orderInput`); an instance whose name an action segment only holds (`security_group` of
    `/instances/{id}/attach-security-group`) stays embedded."""
    customers = op("listCustomers", "GET", "/customers", [], output_schema=listing("customers", "Customer", "string"))
    order = {
        "type": "object",
        "properties": {"customer_id": {"type": "string", "description": "The customer."}, "note": {"type": "string"}},
        "x-read-only": ["id"],
    }
    for wrapper in ("order", "order_request", "orderInput"):
        params = [{"name": wrapper, "type": "object", "in": "body"}]
        create = op("createOrder", "POST", "/orders", params, input_schema={"properties": {wrapper: order}})
        assert "listCustomers" in wanted([create, customers])[("createOrder", f"{wrapper}.customer_id")][2]
    found = _wants("PUT", "/instances/{id}/attach-security-group", _instance(False), "security_group")
    assert ("consumer", "security_group.snapshots[].id") not in found
