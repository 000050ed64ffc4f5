"""Candidate generation of producer -> consumer inference (kg_tools/deps/producers.py) on small catalogs."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from kg_tools.deps.resources import described_resources


def _tool(name: str, description: str, params: list[dict], **spec) -> ToolInfo:
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params, **spec})


def _candidates(tools: list[ToolInfo]) -> dict[tuple[str, str], set[str]]:
    """(consumer, parameter) -> the names of its candidate producers."""
    _, groups = candidate_groups(tools)
    return {(g[0].consumer.name, g[0].want.parameter): {c.producer.name for c in g} for g in groups if g}


def test_a_description_names_what_it_returns_before_how():
    """ "Search Jira issues using JQL": issues, not JQL; "Find items carrying tags": not `carrying`."""
    assert described_resources("Search Jira issues using JQL (Jira Query Language).") == ["issue"]
    assert described_resources("Lists projects via the admin API") == ["project"]
    assert "carrying" not in described_resources("Find documents carrying one or more tags")


def test_a_required_bare_name_names_the_thing_a_get_or_change_is_about():
    """`get_node(name)` wants a node's name (from `list_nodes`); a create's `name` is the new thing's."""
    name = {"name": "name", "type": "string", "description": "Name of the node", "required": True}
    tools = [
        _tool("list_nodes", "Lists nodes of the cluster with their names.", []),
        _tool("get_node", "Get one node.", [name]),
        _tool("create_node", "Create a node.", [name]),
    ]
    found = _candidates(tools)
    assert "list_nodes" in found[("get_node", "name")]
    assert ("create_node", "name") not in found


def test_a_login_flow_that_hands_out_a_token_provides_it():
    """`updateLoginFlow` (POST, named with `login`, answering with a top-level `session_token`) is a login:
    it provides the session token other calls take; a change offers nothing else of its output."""
    token = {"name": "X-Session-Token", "type": "string", "description": "The session token", "in": "header"}
    session = {"type": "object", "properties": {"session_token": {"type": "string"}, "session": {"type": "object"}}}
    tools = [
        _tool(
            "updateLoginFlow",
            "Submit a login flow.",
            [{"name": "flow", "type": "string", "description": "The flow", "required": True, "in": "query"}],
            http={"method": "POST", "path": "/self-service/login"},
            output_schema=session,
        ),
        _tool("toSession", "Who the session belongs to.", [token], http={"method": "GET", "path": "/sessions/whoami"}),
        _tool(
            "updateSettings",
            "Change settings.",
            [token],
            http={"method": "PUT", "path": "/settings"},
            output_schema={"type": "object", "properties": {"id": {"type": "string"}, "state": {"type": "string"}}},
        ),
    ]
    found = _candidates(tools)
    assert "updateLoginFlow" in found[("toSession", "X-Session-Token")]
    assert "updateSettings" not in found.get(("toSession", "X-Session-Token"), set())


def test_a_bare_identifier_word_in_a_description_names_no_source():
    """ "Exact target reference from the page snapshot" names `browser_snapshot`; "the continue token from the
    next key" of a paging parameter names no `list_label_keys` (`key` is an identifier word, not a thing)."""
    tools = [
        _tool("browser_snapshot", "Capture the page.", []),
        _tool("list_label_keys", "Lists label keys.", []),
        _tool(
            "browser_click",
            "Click.",
            [{"name": "ref", "type": "string", "description": "Exact target reference from the page snapshot"}],
        ),
        _tool(
            "list_workflows",
            "Lists workflows.",
            [{"name": "continue", "type": "string", "description": "The token to continue from the next key"}],
        ),
    ]
    fixed, _ = candidate_groups(tools)
    pairs = {(p.source, p.target) for p in fixed}
    assert ("browser_click", "browser_snapshot") in pairs
    assert ("list_workflows", "list_label_keys") not in pairs
