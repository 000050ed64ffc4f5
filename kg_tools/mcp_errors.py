"""One error mapping for both MCP faces (`kg-tools mcp`, `kg-tools gateway`): a `KgToolsError` -> the MCP answer.

The rule follows the MCP spec (2025-11-25, server/tools "Error Handling"):
- a tool execution error is anything the model can read and act on by changing its call (invalid
  arguments, a tool, server or catalog that does not exist, a policy denial, an upstream server that
  failed or did not answer): a tool result with `isError: true` and the message as its text;
- a protocol error is a request that no other arguments would fix: no valid bearer token, or kg-tools
  itself cannot serve (Neo4j unreachable or out of memory, a broken setting or index): a JSON-RPC
  error with the message (and the error's `data`, if it has one).
Calls to an MCP tool the server does not have and malformed requests are answered by the SDK itself.
Anything that is not a KgToolsError is a crash: the SDK logs it and answers `Error executing tool <name>`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS
from pydantic import ValidationError

from kg_tools.errors import (
    ConfigurationError,
    DatabaseMemoryError,
    DatabaseUnavailableError,
    InvalidArgumentsError,
    KgToolsError,
    Neo4jServerError,
    SchemaMismatchError,
    UnauthorizedError,
)

# The protocol errors and their JSON-RPC codes; every other KgToolsError is a tool execution error.
PROTOCOL_ERRORS: dict[type[KgToolsError], int] = {
    UnauthorizedError: INVALID_PARAMS,  # the code the gateway always used for it
    DatabaseUnavailableError: INTERNAL_ERROR,
    DatabaseMemoryError: INTERNAL_ERROR,
    Neo4jServerError: INTERNAL_ERROR,
    ConfigurationError: INTERNAL_ERROR,
    SchemaMismatchError: INTERNAL_ERROR,
}


def jsonrpc_code(exc: KgToolsError) -> int | None:
    """The JSON-RPC error code `exc` is answered with; None: it is an `isError` tool result."""
    return next((code for cls, code in PROTOCOL_ERRORS.items() if isinstance(exc, cls)), None)


def mcp_error(exc: KgToolsError) -> Exception:
    """What a tool handler raises for `exc`: `MCPError` (the SDK answers a JSON-RPC error) or `ToolError`
    (the SDK answers a tool result with `isError: true`)."""
    code = jsonrpc_code(exc)
    if code is None:
        return ToolError(str(exc))
    return MCPError(code, str(exc), getattr(exc, "data", None))


@contextmanager
def mcp_errors() -> Iterator[None]:
    """Around a tool handler's work: every KgToolsError leaves it as `mcp_error(exc)`."""
    try:
        yield
    except KgToolsError as exc:
        raise mcp_error(exc) from exc


def invalid_arguments(exc: ValidationError) -> InvalidArgumentsError:
    """A pydantic ValidationError of a tool's arguments as one line naming every field."""
    problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors())
    return InvalidArgumentsError(f"invalid arguments: {problems}")
