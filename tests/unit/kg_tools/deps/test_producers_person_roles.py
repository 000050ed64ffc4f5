"""A person named by the role they play (`assignee`, `reviewers`, `sender_id`) wants a user, member or collaborator
of the catalog (kg_tools/deps/producers.py, sixteenth session, "parameters that name a person by role"). Small
made-up tools, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups, parameter_wants, prepare
from tests.support.made_up_ops import listing


def _want(parameter: dict, known: set[str], name: str = "update_task"):
    raw = {"name": name, "description": "Update a task.", "parameters": [parameter]}
    tool = prepare([ToolInfo.from_raw(raw)])[name]
    return parameter_wants(tool, parameter, known)


def test_a_role_wants_the_people_of_the_catalog_a_container_s_first():
    """`assignee: integer` is a member's id when the catalog has members (a workspace's people) beside users, as
    `add_assignees: [integer]`; `assignee_id` and `reviewer_username` a user's when only users are known; not an email."""
    want = _want({"name": "assignee", "type": "integer", "description": "Assignee"}, {"task", "member", "user"})
    assert want and (want.resources, want.field, want.fallback) == (["member"], "id", ["user"])
    want = _want({"name": "add_assignees", "type": "array", "items": {"type": "integer"}}, {"task", "member"})
    assert want and (want.resources, want.field) == (["member"], "id")
    want = _want({"name": "assignee_id", "type": "string"}, {"task", "user"})
    assert want and (want.resources, want.field) == (["user"], "id")
    want = _want({"name": "reviewer_username", "type": "string"}, {"task", "user"})
    assert want and (want.resources, want.field) == (["user"], "username")
    want = _want({"name": "recipient_email", "type": "string"}, {"task", "user"})
    assert not want or want.resources != ["user"]  # an email is anyone's address


def test_no_person_without_people_in_the_catalog_nor_for_a_role_it_has_its_own_resource_for():
    """Without users, members or collaborators, `assignee` stays a value a person gives, and so does a bare string
    (a login, a name or an email); a catalog that lists senders (`sender_id`) means those, a role of a team
    (`team_reviewer_ids`) no user; a search text on reporters is no person."""
    assert _want({"name": "assignee", "type": "integer"}, {"task"}) is None
    assert _want({"name": "assignee", "type": "string"}, {"task", "user"}) is None
    want = _want({"name": "reviewers", "type": "array", "items": {"type": "string"}}, {"task", "user"})
    assert not want or want.resources != ["user"]
    want = _want({"name": "sender_id", "type": "integer"}, {"sender", "user"})
    assert want and want.resources == ["sender"]
    want = _want({"name": "team_reviewer_ids", "type": "array", "items": {"type": "string"}}, {"team", "user"})
    assert not want or want.resources != ["user"]
    want = _want({"name": "searchReporterId", "type": "string"}, {"user"}, name="list_abuses")
    assert not want or want.resources != ["user"]


def test_a_list_of_members_is_the_candidate_of_an_assignee():
    """`create_task(assignee: integer)` beside `list_members` (an output with the members' ids): a candidate."""
    members = listing("members", "Member")
    raw = [
        {
            "name": "list_members",
            "description": "List the workspace's members.",
            "parameters": [],
            "output_schema": members,
        },
        {
            "name": "create_task",
            "description": "Create a task.",
            "parameters": [
                {"name": "title", "type": "string", "required": True},
                {"name": "assignee", "type": "integer", "description": "Assignee"},
            ],
        },
    ]
    _, groups = candidate_groups([ToolInfo.from_raw(r) for r in raw])
    pairs = {(c.consumer.name, c.want.parameter, c.producer.name) for g in groups for c in g}
    assert ("create_task", "assignee", "list_members") in pairs
