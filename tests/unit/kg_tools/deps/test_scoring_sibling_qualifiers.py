"""Of a parameter's kept producers, one whose qualifier of the wanted resource the consumer does not say goes when
another kept producer's qualifier is the consumer's (kg_tools/deps/scoring.py `without_sibling_qualifiers`;
twenty-second session, "one noun under sibling qualifiers"). Made-up tools."""

from __future__ import annotations

from kg_tools.deps.producers import Tool, Want
from kg_tools.deps.scoring import Candidate, without_sibling_qualifiers

WANT = Want("environment", ["environment"], "name", True)


def _tool(name: str, path: str = "") -> Tool:
    return Tool(name, "", [], http={"method": "GET", "path": path} if path else None)


def _kept(consumer: Tool, *producers: Tool) -> list[str]:
    kept = [Candidate(consumer, WANT, p, None) for p in producers]
    return [c.producer.name for c in without_sibling_qualifiers(kept)]


def test_the_producer_under_the_sibling_scope_goes():
    consumer = _tool("getProjectEnvironment", "/projects/{project}/environments/{environment}")
    project = _tool("listProjectEnvironments", "/projects/{project}/environments")
    organization = _tool("listOrganizationEnvironments", "/organizations/{org}/environments")
    assert _kept(consumer, organization, project) == ["listProjectEnvironments"]


def test_names_alone_tell_the_scopes_apart():
    consumer = _tool("delete_application_environment")
    assert _kept(consumer, _tool("list_project_environments"), _tool("list_application_environments")) == [
        "list_application_environments"
    ]


def test_without_a_producer_of_the_consumers_scope_all_stay():
    consumer = _tool("get_environment")
    producers = (_tool("list_project_environments"), _tool("list_organization_environments"))
    assert _kept(consumer, *producers) == ["list_project_environments", "list_organization_environments"]
    assert _kept(_tool("delete_application_environment"), producers[0]) == ["list_project_environments"]


def test_the_callers_own_and_the_plain_reader_are_no_scope():
    consumer = _tool("delete_project_environment")
    kept = _kept(consumer, _tool("list_my_environments"), _tool("list_project_environments"), _tool("environments"))
    assert kept == ["list_my_environments", "list_project_environments", "environments"]
