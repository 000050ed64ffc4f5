"""The gateway's logic (kg_tools/gateway/service.py) without Neo4j or an upstream: policy and routing,
the widening search, why texts, server ranking, the token cap and argument schema checks."""

from __future__ import annotations

import anyio
import pytest
from mcp.types import Tool as McpTool

from kg_tools.errors import (
    InvalidArgumentsError,
    PolicyDeniedError,
    UnauthorizedError,
    UnknownServerError,
    UnknownToolError,
    UpstreamCallError,
)
from kg_tools.gateway import service as gw
from kg_tools.gateway import validation
from kg_tools.gateway.config import Profile, parse_config
from kg_tools.gateway.results import GatewayHit, GatewaySearch
from kg_tools.gateway.sync import gateway_entries
from kg_tools.mcp_server import typed

READ_ONLY = {"readOnlyHint": True}
TOKEN = "agent-" + "t" * 20


class FakeService:
    """Retrieval answers for `Gateway.search` and `Gateway.get`; records every search's k and K."""

    settings = None

    def __init__(self, tools: list[dict] | None = None, error: Exception | None = None):
        self.tools, self.error, self.searches, self.scopes = tools or [], error, [], []

    def search(self, *, query, k, K, catalogs, stages):
        if self.error is not None:
            raise self.error
        assert stages == gw.SEARCH_STAGES
        self.searches.append((k, K))
        self.scopes.append(catalogs)
        return {"tools": [t for t in self.tools if t["name"].split("__")[0] in catalogs]}

    def get(self, name, catalog=None):
        return {
            "spec": {"name": name, "description": f"{name} does it", "title": None},
            "dependencies": [
                {"name": "fs__list", "kind": "regular", "type": "TOOL_DIRECTLY_DEPENDS_ON", "parameter_name": None}
                | {"reason": "lists first"},
                {"name": "fs__delete", "kind": "regular", "type": "TOOL_DIRECTLY_DEPENDS_ON", "parameter_name": None}
                | {"reason": "hidden"},
            ],
        }


def seed(name: str, score: float = 0.9) -> dict:
    return {"name": name, "role": "seed", "score": score, "spec": {"description": f"{name} does it"}}


def dependency(name: str, of: str, **via) -> dict:
    return {"name": name, "role": "dependency", "via": [{"from": of, **via}], "spec": {"description": name}}


def gateway(service=None, **profiles) -> gw.Gateway:
    config = parse_config(
        {
            "mcpServers": {"fs": {"command": "fs-server"}, "mem": {"command": "mem-server"}},
            "kg-tools": {"default_profile": "agent", "profiles": profiles or {"agent": {"deny": ["fs__delete"]}}},
        }
    )
    g = gw.Gateway(config, service or FakeService())
    g.routes = {
        "fs__read": gw.Route("fs", "read", {"type": "object", "required": ["path"]}, READ_ONLY),
        "fs__list": gw.Route("fs", "list", {}, READ_ONLY),
        "fs__old_read": gw.Route("fs", "old_read", {}, READ_ONLY, deprecated=True),
        "fs__delete": gw.Route("fs", "delete", {}, {"destructiveHint": True}),
        "mem__write": gw.Route("mem", "write", {}, None),
    }
    return g


AGENT = ("agent", Profile(deny=["fs__delete"]))


# -- policy and routing -----------------------------------------------------------------------
def test_a_bearer_token_picks_its_profile_and_none_is_refused():
    profiles = {"agent": Profile(token=TOKEN), "other": Profile(token="other-" + "o" * 20)}
    assert gw.bearer_profile({"Authorization": f"Bearer {TOKEN}"}, profiles)[0] == "agent"
    assert gw.bearer_profile({"authorization": f"bearer {TOKEN} "}, profiles)[0] == "agent"
    for headers in ({}, {"Authorization": TOKEN}, {"Authorization": "Bearer wrong-token-of-twenty-chars"}):
        with pytest.raises(UnauthorizedError, match="no valid bearer token") as refused:
            gw.bearer_profile(headers, profiles)
        assert refused.value.data == {"rule": "bearer token"}


def test_the_stdio_profile_is_the_chosen_one_and_http_needs_a_token():
    g = gateway(agent={"token": TOKEN})
    assert g.profile(None)[0] == "agent"
    assert g.profile({"Authorization": f"Bearer {TOKEN}"})[0] == "agent"
    with pytest.raises(UnauthorizedError):
        g.profile({})


def test_check_routes_an_allowed_tool_and_names_what_refuses_the_others():
    g = gateway()
    assert g.check(*AGENT, "fs__read").tool == "read"
    with pytest.raises(UnknownToolError, match=r"unknown tool 'fs__nope': not a tool of a connected server"):
        g.check(*AGENT, "fs__nope")
    with pytest.raises(PolicyDeniedError) as denied:
        g.check(*AGENT, "fs__delete")
    assert str(denied.value) == "denied: fs__delete is not allowed by profiles.agent.deny 'fs__delete'"
    assert denied.value.data == {"tool": "fs__delete", "server": "fs", "rule": "profiles.agent.deny 'fs__delete'"}
    with pytest.raises(PolicyDeniedError, match="allow_destructive"):
        g.check(*AGENT, "mem__write")  # no annotations: destructive by the spec's defaults


def test_call_refuses_before_dispatching_and_names_a_server_that_is_down():
    g = gateway()

    async def call(name, arguments):
        return await g.call(AGENT, name, arguments)

    with pytest.raises(UnknownToolError):
        anyio.run(call, "fs__nope", {})
    with pytest.raises(PolicyDeniedError):
        anyio.run(call, "fs__delete", {})
    with pytest.raises(InvalidArgumentsError, match=r"invalid arguments for fs__read: \(arguments\): 'path'"):
        anyio.run(call, "fs__read", {})
    with pytest.raises(UpstreamCallError, match=r"upstream 'fs': not connected \(starting\)") as down:
        anyio.run(call, "fs__read", {"path": "/x"})
    assert down.value.server == "fs" and not down.value.timeout


# -- search -----------------------------------------------------------------------------------
def test_a_seed_that_is_not_offered_goes_with_its_dependencies():
    tools = [seed("fs__old_read"), dependency("fs__list", "fs__old_read"), seed("fs__read"), seed("fs__delete")]
    offered = {"fs__read", "fs__list"}.__contains__
    assert [t["name"] for t in gw.offered_hits(tools, offered)] == ["fs__read"]


def test_the_search_widens_by_the_seeds_it_could_not_offer():
    tools = [
        seed("fs__old_read", 0.95),
        seed("fs__delete", 0.9),
        seed("fs__read", 0.8),
        dependency("fs__list", "fs__read", parameter_name="path", reason="lists the paths"),
        seed("mem__write", 0.5),
    ]

    def retrieve(k, K):
        calls.append((k, K))
        seeds = [t for t in tools if t["role"] == "seed"][:k]
        return [t for t in tools if t in seeds or (t["role"] == "dependency" and t["via"][0]["from"] in str(seeds))]

    calls: list = []
    offered = {"fs__read", "fs__list"}.__contains__
    hits = gw.widening_search(retrieve, offered, k=1, K=10)
    assert [t["name"] for t in hits] == ["fs__read", "fs__list"]
    assert calls == [(1, 10), (2, 11), (4, 13)]  # one hidden seed, then two more: three rounds at most
    calls.clear()
    assert [t["name"] for t in gw.widening_search(retrieve, offered, k=1, K=1)] == ["fs__read"]


def test_search_returns_typed_compact_hits_and_refuses_an_unknown_server():
    service = FakeService([seed("fs__read"), dependency("fs__list", "fs__read", reason="lists first")])
    g = gateway(service)
    result = g.search(AGENT, "read a file", 3, 10, None, "compact", None)
    assert [h.name for h in result.tools] == ["fs__read", "fs__list"]
    assert gw.payload(result)["tools"][1] == {
        "name": "fs__list",
        "server": "fs",
        "description": "fs__list",
        "input_schema": {},
        "why": "needed by fs__read: lists first",
    }
    assert set(gw.payload(result)) == {"tools"}
    full = g.search(AGENT, "read a file", 3, 10, "fs", "full", None)
    assert full.tools[0].spec == {"description": "fs__read does it"}
    with pytest.raises(UnknownServerError, match=r"unknown server 'git'; servers: fs, mem"):
        g.search(AGENT, "read a file", 3, 10, "git", "compact", None)


def test_why_says_match_or_what_needs_it_and_how_that_is_known():
    assert gw.why(seed("a", 0.91234)) == "matches the query (score 0.912)"
    assert gw.why({"role": "seed", "score": None}) == "matches the query"
    assert gw.why(dependency("b", "a", parameter_name="id", reason="gives the id")) == (
        "needed by a for parameter 'id': gives the id"
    )
    inferred = dependency("b", "a", inferred=True, confidence=0.734, reason="path template")
    assert gw.why(inferred) == "needed by a (inferred, confidence 0.73): path template"
    observed = dependency("b", "a", parameter_name="id", reason="seen 3 times in 3 sessions: id of a")
    assert (
        gw.why(observed)
        == "needed by a for parameter 'id' (observed in real calls): seen 3 times in 3 sessions: id of a"
    )


def test_get_shows_the_route_and_only_the_dependencies_the_profile_may_use():
    tool = gateway().get(AGENT, "fs__read")
    assert (tool.server, tool.upstream_name, tool.annotations) == ("fs", "read", READ_ONLY)
    assert [d.name for d in tool.dependencies] == ["fs__list"]
    assert gw.payload(tool)["title"] is None  # null fields stay in the answer


def test_servers_rank_by_cosine_similarity_and_without_an_embedding_not_at_all():
    rows = [
        {"name": "far", "title": None, "version": "1", "embedding": [0.0, 1.0]},
        {"name": "near", "title": "Near", "version": "2", "embedding": [2.0, 0.1]},
        {"name": "none", "title": None, "version": None, "embedding": None},
    ]
    ranked = gw.rank([1.0, 0.0], rows, {"far": 3, "near": 1, "none": 2})
    assert [(r.name, r.tools) for r in ranked] == [("near", 1), ("far", 3)]
    assert ranked[0].score == pytest.approx(0.9988, abs=1e-4) and ranked[1].score == 0.0


# -- token cap, schema checks -----------------------------------------------------------------
def hit(i: int) -> GatewayHit:
    return GatewayHit(name=f"s__t{i}", server="s", description="x" * 100, input_schema={}, why="matches the query")


def test_the_cap_drops_tools_from_the_end_until_the_json_fits():

    result = gw.cap(GatewaySearch(tools=[hit(i) for i in range(10)]), max_tokens=200)
    data = gw.payload(result)
    # what is counted is the text as sent (indented JSON), not a compact dump (issue 30, problem 12)
    sent = typed(data).content[0].text
    assert len(sent) <= 200 * gw.CHARS_PER_TOKEN
    kept = len(result.tools)
    assert 0 < kept < 10 and [t["name"] for t in data["tools"]] == [f"s__t{i}" for i in range(kept)]
    assert data["truncated"] == f"{10 - kept} tool(s) left out to stay within max_tokens=200"
    bigger = gw.payload(GatewaySearch(tools=[hit(i) for i in range(kept + 1)], truncated=data["truncated"]))
    assert len(typed(bigger).content[0].text) > 200 * gw.CHARS_PER_TOKEN  # no more was dropped than needed
    untouched = gw.cap(GatewaySearch(tools=[hit(1)]), max_tokens=None)
    assert set(gw.payload(untouched)) == {"tools"}
    assert "truncated" not in gw.payload(gw.cap(GatewaySearch(tools=[hit(1)]), max_tokens=1000))


def test_schema_problems_name_each_argument_and_a_broken_schema_blocks_nothing():
    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "n": {"type": "integer"}},
        "required": ["path"],
    }
    route = gw.Route("fs", "read", schema, None)
    assert gw.schema_problems(route, {"path": "/a", "n": 1}) == []
    assert gw.schema_problems(route, {"n": "x"}) == [
        "(arguments): 'path' is a required property",
        "n: 'x' is not of type 'integer'",
    ]
    many = gw.Route("fs", "many", {"type": "object", "additionalProperties": {"type": "integer"}}, None)
    assert len(gw.schema_problems(many, {f"a{i}": "x" for i in range(20)})) == validation.MAX_PROBLEMS
    broken = gw.Route("fs", "broken", {"type": "no-such-type"}, None)
    assert gw.schema_problems(broken, {"anything": 1}) == [] and broken.validator is False


def test_deprecated_by_title_or_by_a_capital_word_in_the_description():
    assert gw.is_deprecated({"title": "Read file (Deprecated)"})
    assert gw.is_deprecated({"description": "DEPRECATED: Use read_text_file instead"})
    assert not gw.is_deprecated({"description": "Reads a file; the old deprecated flag is ignored"})


def test_an_upstream_tool_with_a_malformed_schema_is_left_out_and_the_others_sync(caplog):
    tools = [
        McpTool(name="get_user", inputSchema={"type": "object", "properties": {"id": {"anyOf": 5}}}),
        McpTool(name="list_users", inputSchema={"type": "object"}),
    ]
    with caplog.at_level("WARNING", logger="kg_tools.gateway"):
        entries = gateway_entries("crm", tools)
    assert [e["upstream"]["tool"] for e in entries] == ["list_users"]
    assert (
        "tool 'get_user' left out: MCP tool 'get_user': inputSchema/properties/id/anyOf must be a list" in caplog.text
    )
