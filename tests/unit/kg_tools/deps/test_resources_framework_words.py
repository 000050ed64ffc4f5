"""Words a framework writes into generated operation ids name no resource: `controller` (resources.FRAMEWORK_WORDS;
twenty-fourth session, "framework words read as a resource")."""

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from kg_tools.deps.resources import resource_key


def test_a_name_s_resource_skips_the_controller():
    assert resource_key(["policy", "type", "controller"]) == "type"
    assert resource_key(["audit", "log", "events", "controller"]) == "event"
    assert resource_key(["controllers"]) is None
    assert resource_key(["views"]) == "view" and resource_key(["services"]) == "service"  # real resources elsewhere


def _tool(name: str, path: str, *params: str) -> dict:
    return {
        "name": name,
        "description": "",
        "parameters": [{"name": p, "type": "string", "required": False, "in": "query"} for p in params],
        "http": {"method": "GET", "path": path},
    }


def test_a_bare_id_of_a_controller_named_list_wants_no_controller():
    tools = [
        _tool("st2api_controllers_v1_policies_policy_type_controller_get_all", "/api/v1/policytypes", "id"),
        _tool("st2api_controllers_v1_triggers_trigger_controller_get_all", "/api/v1/triggers"),
    ]
    _, groups = candidate_groups([ToolInfo.from_raw(t) for t in tools])
    wants = [g[0].want.resources for g in groups if g]
    pairs = [(c.consumer.name, c.producer.name) for g in groups for c in g]
    assert all("controller" not in r for rs in wants for r in rs)
    assert not any("trigger_controller" in p for _, p in pairs)


def test_a_parameter_named_for_a_controller_still_wants_one():
    tools = [
        {"name": "get_controller", "description": "Gets a controller.", "parameters": [
            {"name": "controller_id", "type": "string", "required": True}]},
        {"name": "list_controllers", "description": "Lists controllers.", "parameters": []},
    ]  # fmt: skip
    _, groups = candidate_groups([ToolInfo.from_raw(t) for t in tools])
    assert [(c.want.resources, c.producer.name) for g in groups for c in g] == [(["controller"], "list_controllers")]
