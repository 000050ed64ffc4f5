"""What an upstream may send the gateway, and the cut of a result that is too large to pass on.

Every limit is per message, counted while it arrives (nothing larger is buffered): an HTTP JSON body,
an SSE event, a stdio line. A message over MAX_MESSAGE_BYTES fails the request it answers ("answer
larger than ... bytes") and the connection stays up. A call result that arrived whole but is larger than
MAX_RESULT_BYTES is passed on cut: text cut, structured content (or an embedded resource, an image) left
out when it alone is too large, and a note at the end saying what was cut.
"""

from __future__ import annotations

from typing import Any

from mcp_types import TextContent

MAX_MESSAGE_BYTES = 32 * 1024 * 1024  # one upstream message (a large real tool list: < 1 MB)
MAX_RESULT_BYTES = 1024 * 1024  # one call result as passed to the agent
MAX_TOOLS_PER_PAGE = 1_000  # tools in one tools/list page (more: the listing fails)
MAX_TOOLS = 10_000  # tools of one server
MAX_TOOL_PAGES = 100  # tools/list pages per listing
MAX_CALLS_IN_FLIGHT = 16  # concurrent calls to one upstream; more wait their turn (within call_timeout)
PARSE_IN_THREAD_BYTES = 256 * 1024  # larger messages are parsed off the event loop

TOO_LARGE = "answer larger than {limit:,} bytes (kg-tools gateway limit): cut off, not read"


def too_large(limit: int = MAX_MESSAGE_BYTES) -> str:
    return TOO_LARGE.format(limit=limit)


def _size(block: Any) -> int:
    return len(block.model_dump_json(by_alias=True, exclude_none=True))


def cut_result(result: Any, limit: int = MAX_RESULT_BYTES) -> Any:
    """`result` (a CallToolResult) unchanged when it fits `limit` bytes as JSON, else a copy with its text
    blocks cut and the blocks (and structured content) that do not fit left out, plus a note."""

    total = len(result.model_dump_json(by_alias=True, exclude_none=True))
    if total <= limit:
        return result
    budget = limit - 512  # room for the note and the envelope
    kept: list = []
    for block in result.content:
        if budget <= 0:
            break
        size = _size(block)
        if size <= budget:
            kept.append(block)
            budget -= size
        elif isinstance(block, TextContent):
            text = block.text.encode()[: max(0, budget - 64)].decode(errors="ignore")
            kept.append(block.model_copy(update={"text": text}))
            budget = 0
    structured = result.structured_content
    if structured is not None and (budget <= 0 or len(result.model_dump_json(include={"structured_content"})) > budget):
        structured = None
    dropped = len(result.content) - len(kept)
    note = (
        f"[kg-tools gateway: the result was {total:,} bytes, over the limit of {limit:,}; it was cut"
        + (f", {dropped} content block(s) left out" if dropped else "")
        + (", structuredContent left out" if structured is None and result.structured_content is not None else "")
        + "]"
    )
    return result.model_copy(
        update={"content": [*kept, TextContent(type="text", text=note)], "structured_content": structured}
    )
