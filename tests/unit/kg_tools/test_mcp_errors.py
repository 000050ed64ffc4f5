"""One MCP error mapping for both faces (kg_tools/mcp_errors.py), seen by the SDK's own client in-process: what
the model can correct is a tool result with `isError: true`, what no other call would fix a JSON-RPC error.
No Neo4j and no upstream: the services are stand-ins."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS

from kg_tools import errors
from kg_tools.gateway.server import build_server as gateway_server
from kg_tools.mcp_errors import PROTOCOL_ERRORS, jsonrpc_code, mcp_error
from kg_tools.mcp_server import McpBackend
from kg_tools.mcp_server import build_server as mcp_server
from tests.unit.kg_tools.gateway.test_service import FakeService, gateway, seed


def every_error_class(cls=errors.KgToolsError) -> list[type]:
    return [cls] + [c for sub in cls.__subclasses__() for c in every_error_class(sub)]


def test_only_unauthorized_and_kg_tools_unable_to_serve_are_protocol_errors():
    protocol = {c for c in every_error_class() if jsonrpc_code(c.__new__(c)) is not None}
    assert protocol == {
        errors.UnauthorizedError,
        errors.DatabaseUnavailableError,
        errors.OutcomeUnknownError,  # a DatabaseUnavailableError
        errors.DatabaseMemoryError,
        errors.Neo4jServerError,
        errors.ConfigurationError,
        errors.SchemaMismatchError,
    }
    assert set(PROTOCOL_ERRORS) <= protocol
    for cls in (errors.GatewayError, errors.UnauthorizedError, errors.UpstreamCallError, errors.InvalidArgumentsError):
        assert issubclass(cls, errors.KgToolsError)  # the CLI and the API know them


def test_the_mapping_keeps_the_message_and_the_data():
    refused = mcp_error(errors.UnauthorizedError("no valid bearer token: ...", rule="bearer token"))
    assert isinstance(refused, MCPError)
    assert (refused.code, refused.message, refused.data) == (
        INVALID_PARAMS,
        "no valid bearer token: ...",
        {"rule": "bearer token"},
    )
    down = mcp_error(errors.DatabaseUnavailableError("Neo4j cannot be reached at bolt://x"))
    assert isinstance(down, MCPError) and (down.code, down.data) == (INTERNAL_ERROR, None)
    slow = mcp_error(errors.UpstreamCallError("time", "no answer to tools/call 'now' within 1s", timeout=True))
    assert isinstance(slow, ToolError) and str(slow) == "upstream 'time': no answer to tools/call 'now' within 1s"


def call(server, tool: str, arguments: dict):
    """The client's answer: a CallToolResult, or the MCPError it raised."""

    async def run():
        async with Client(server) as client:
            try:
                return await client.call_tool(tool, arguments)
            except MCPError as exc:
                return exc

    return anyio.run(run)


def text(result, tool: str) -> str:
    """The message of an `isError` result, after the SDK's `Error executing tool <tool>: `."""
    assert not isinstance(result, MCPError), result
    assert result.is_error, result
    prefix = f"Error executing tool {tool}: "
    assert result.content[0].text.startswith(prefix), result.content[0].text
    return result.content[0].text.removeprefix(prefix)


def test_the_gateway_answers_what_the_model_can_correct_as_tool_results():
    server = gateway_server(gateway(FakeService([seed("fs__read")])))
    assert text(call(server, "call_tool", {"name": "git__log"}), "call_tool") == (
        "unknown tool 'git__log': not a tool of a connected server (use search_tools)"
    )
    assert text(call(server, "call_tool", {"name": "fs__delete"}), "call_tool") == (
        "denied: fs__delete is not allowed by profiles.agent.deny 'fs__delete'"
    )
    assert text(call(server, "get_tool", {"name": "fs__delete"}), "get_tool").startswith("denied: fs__delete")
    assert text(call(server, "call_tool", {"name": "fs__read", "arguments": {}}), "call_tool") == (
        "invalid arguments for fs__read: (arguments): 'path' is a required property"
    )
    assert text(call(server, "call_tool", {"name": "fs__read", "arguments": {"path": "/a"}}), "call_tool") == (
        "upstream 'fs': not connected (starting)"
    )
    assert text(call(server, "search_tools", {"query": "read", "server": "git"}), "search_tools") == (
        "unknown server 'git'; servers: fs, mem"
    )
    found = call(server, "search_tools", {"query": "read a file"})
    assert not found.is_error and found.structured_content["tools"][0]["name"] == "fs__read"


def test_the_gateway_answers_neo4j_down_as_a_jsonrpc_error():
    down = errors.DatabaseUnavailableError("Neo4j cannot be reached")
    answer = call(gateway_server(gateway(FakeService(error=down))), "search_tools", {"query": "read"})
    assert isinstance(answer, MCPError) and (answer.code, answer.message) == (INTERNAL_ERROR, str(down))


class FakeMcpService:
    """`kg-tools mcp`'s McpBackend, failing as told."""

    def __init__(self, error: Exception):
        self.error = error

    def search(self, **fields):
        raise self.error

    def get(self, name, catalog=None):
        raise errors.ToolNotFoundError(name)


def test_kg_tools_mcp_applies_the_same_rule():
    server = mcp_server(FakeMcpService(errors.DatabaseUnavailableError("Neo4j cannot be reached")))
    assert text(call(server, "get_tool", {"name": "no_such_tool"}), "get_tool") == "tool not found: 'no_such_tool'"
    answer = call(server, "search_tools", {"query": "book a flight"})
    assert isinstance(answer, MCPError) and answer.code == INTERNAL_ERROR
    unknown_stage = mcp_server(FakeMcpService(errors.UnknownStageError("unknown stage(s): teleport")))
    assert (
        text(call(unknown_stage, "search_tools", {"query": "book a flight"}), "search_tools")
        == "unknown stage(s): teleport"
    )


def test_retrieval_arguments_the_signature_lets_through_are_invalid_arguments():
    service = McpBackend.__new__(McpBackend)  # no graph: the request is refused before any is used
    with pytest.raises(errors.InvalidArgumentsError, match=r"^invalid arguments: query: "):
        service.search(query="   ")
