"""A path parameter whose id only other resources' outputs carry, nested under its own name, keeps those outputs
when nothing else provides it (scoring.nested_only_for): twenty-seventh session, "foreign keys nested in other
resources' lists"."""

import dataclasses

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from kg_tools.deps.scoring import default_scorer, select

PERMISSION = {"type": "object", "properties": {"id": {"type": "string"}, "key": {"type": "string"}}}
ROLE = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"},
        "permissions": {"type": "array", "items": PERMISSION}}}  # fmt: skip
ROLES = {"type": "object", "properties": {"data": {"type": "array", "items": ROLE}}}


def _tool(name: str, method: str, path: str, *params: str, output: dict | None = None) -> dict:
    tool = {
        "name": name,
        "description": f"{method} {path}",
        "parameters": [{"name": p, "type": "string", "required": True, "in": "path"} for p in params],
        "http": {"method": method, "path": path},
    }
    if output is not None:
        tool["output_schema"] = output
    return tool


TOOLS = [  # Clerk's organization roles: a permission's id is only ever read inside a role
    _tool("ListOrganizationRoles", "GET", "/organization_roles", output=ROLES),
    _tool(
        "GetOrganizationRole", "GET", "/organization_roles/{organization_role_id}", "organization_role_id", output=ROLE
    ),  # fmt: skip
    _tool(
        "AssignPermission",
        "POST",
        "/organization_roles/{organization_role_id}/permissions/{permission_id}",
        "organization_role_id",
        "permission_id",
    ),  # fmt: skip
]


def _group(p: float) -> list:
    _, groups = candidate_groups([ToolInfo.from_raw(t) for t in TOOLS])
    [group] = [g for g in groups if g and (g[0].consumer.name, g[0].want.parameter) == ("AssignPermission",
               "permission_id")]  # fmt: skip
    for c in group:
        c.probability = p
    return group


def test_the_permission_is_offered_nested_in_the_roles_under_its_own_name():
    group = _group(0.05)
    assert {c.producer.name for c in group} >= {"ListOrganizationRoles", "GetOrganizationRole"}
    assert all(c.want.in_path for c in group)
    assert all(c.offer is not None and not c.offer.primary and not c.offer.reference for c in group)


def test_the_path_parameter_nothing_else_provides_keeps_the_outputs_that_hold_it():
    group = _group(0.05)
    kept, abstained = select([group], default_scorer())
    assert {c.producer.name for c in kept} >= {"ListOrganizationRoles"} and abstained["below_threshold"] == 0
    assert select([_group(0.01)], default_scorer())[0] == []  # below the floor


def test_not_for_a_parameter_outside_the_path_nor_a_reference_field_nor_many_candidates():
    group = _group(0.05)
    outside = [dataclasses.replace(c, want=dataclasses.replace(c.want, in_path=False)) for c in group]
    assert select([outside], default_scorer())[0] == []
    refs = [dataclasses.replace(c, offer=dataclasses.replace(c.offer, reference=True)) for c in group]
    assert select([refs], default_scorer())[0] == []
    many = group + [dataclasses.replace(group[0]) for _ in range(3)]
    assert select([many], default_scorer())[0] == []
