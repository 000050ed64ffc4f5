"""Gateway tool names: `<server>__<tool>`, deterministic, at most 64 characters, unique.

MCP clients (and most LLM APIs) accept tool names of `[A-Za-z0-9_.-]{1,64}`. A name that needs
no change is kept as `server__tool`; one with other characters, longer than 64, or that another
pair could also produce (`ambiguous`) gets those characters replaced and a hash of the exact
original pair as suffix, so two pairs never share
a name and the same pair always gets the same one. The way back is a lookup in the gateway's
table (and the stored spec's `upstream` field), never parsing.
"""

from __future__ import annotations

import hashlib
import re

SEPARATOR = "__"
MAX_LENGTH = 64
_HASH_LENGTH = 8
_NOT_ALLOWED = re.compile(r"[^A-Za-z0-9_.\-]")


def qualified_name(server: str, tool: str) -> str:
    plain = f"{server}{SEPARATOR}{tool}"
    cleaned = _NOT_ALLOWED.sub("_", plain)
    if cleaned == plain and len(plain) <= MAX_LENGTH and not ambiguous(server, tool):
        return plain
    digest = hashlib.sha256(f"{server}\x00{tool}".encode()).hexdigest()[:_HASH_LENGTH]
    return f"{cleaned[: MAX_LENGTH - _HASH_LENGTH - 1]}_{digest}"


def split_gateway_name(name: str, operation_id: str = "") -> tuple[str, str]:
    """(server, tool) of a gateway name: `github__get_issue` -> (github, get_issue); ('', name) for another name,
    and for an HTTP operation named by its own `operation_id` or by its first characters (names are cut at 64):
    FastAPI writes `<function>_<path>_<method>`, with `__` around each path parameter (`read_flow_flows__id__get`).
    A name that begins with the separator (`__node_version`) has no server. The one reading of `__` in names
    (kg_tools.deps, kg_tools.utilities)."""
    server, sep, tool = name.partition(SEPARATOR)
    if not sep or operation_id.startswith(name):
        return "", name
    return server, tool


def operation_id(record: object) -> str:
    """The operationId of a tool record's HTTP operation (`http` an object, as ToolSpec's, or a dict); '' if none."""
    http = getattr(record, "http", None)
    found = http.get("operation_id") if isinstance(http, dict) else getattr(http, "operation_id", None)
    return found if isinstance(found, str) else ""


def ambiguous(server: str, tool: str) -> bool:
    """`server__tool` could also be read as another pair: a server key ending in `_` or a tool name starting
    with `_` (`a` + `_b` and `a_` + `b` are both `a___b`). Such pairs always get the hashed form, whichever
    server starts first, so neither collides with the other."""
    return server.endswith("_") or tool.startswith("_")
