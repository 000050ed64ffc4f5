"""Parameters described only in a docstring's "Args:" block (docs/dependencies.md, twenty-third session, "a first
contact with unseen MCP servers").

A Python MCP server (FastMCP) takes a tool's description from its function's docstring and its input schema from the
signature: the parameters' text is then in the description's Google-style block, not in the schema, whose
`description` is missing or only a title ("Calendar Href" of `calendar_href`):

    List events in a CalDAV calendar within a date range.

    Args:
        calendar_href: The href of the calendar (from calendar_list_calendars).
        start_date: ISO date string (YYYY-MM-DD). Defaults to today.

Every rule that reads a parameter's description reads that line (twenty-fourth session, "the Args line as a
parameter's description"): `ToolInfo.from_raw` fills it in, for inference only (the stored catalog keeps the schema
as the server sent it; the block is in the tool's description there).
"""

from __future__ import annotations

import re

# a quoted example value ("Name of the subreddit (e.g., "python")") and a tool's name ("use search_instrument")
EXAMPLE_VALUE = re.compile(r"\b(?:e\.g\.|eg\.|for example|example:?)\s*(?:,\s*)?[\"'`]", re.I)
TOOL_NAME = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
_QUOTED = re.compile(r"([\"'`]).*?\1")
DOCSTRING = "docstring"  # a parameter's key: its description is its line of the block
_HEAD = re.compile(r"^[ \t]*(?:Args|Arguments|Parameters)[ \t]*:[ \t]*\r?$", re.M | re.I)  # CRLF lines too
# `name: text`, `name (str): text`
# (no two runs of blanks side by side: a long run is read once, not tried at every split)
_ITEM = re.compile(r"^[ \t]*(\w+)[ \t]*(?:\([^)\n]*\)[ \t]*)?:[ \t]*(.*)$")


def args_block(description: str) -> dict[str, str]:
    """The "Args:" block of a docstring: parameter name -> its text, continuation lines (indented deeper) joined.
    The block ends at a line indented less than its items, or one that is no item at their indentation."""
    head = _HEAD.search(description or "")
    if not head:
        return {}
    out: dict[str, str] = {}
    indent: int | None = None
    current = ""
    for line in description[head.end() :].split("\n")[1:]:
        if not line.strip():
            continue
        lead = len(line) - len(line.lstrip())
        item = _ITEM.match(line)
        if indent is None:
            if not item:
                break
            indent = lead
        if lead < indent or (lead == indent and not item):
            break
        if lead == indent and item:
            current = item.group(1)
            out[current] = item.group(2).strip()
        else:
            out[current] = f"{out[current]} {line.strip()}"
    return out


def described_parameters(description: str, parameters: list[dict]) -> list[dict]:
    """The tool's top-level parameters, each with no description of its own (or only its name re-spelled as a title)
    given its line of the description's block and marked `DOCSTRING` (read by every rule as its description); not a
    line that only shows an example value (`_example_only`)."""
    block = args_block(description)
    out = []
    for p in parameters:
        own = str(p.get("description") or "")
        name = str(p.get("name") or "")
        line = block.get(name)
        if line and (not own or _squashed(own) == _squashed(name)) and not _example_only(line):
            p = p | {"description": line, DOCSTRING: True}
        out.append(p)
    return out


def _example_only(line: str) -> bool:
    """A line that shows a quoted example value and names no tool to get one from: a value the caller types (the
    subreddit "python"), left unread; "(e.g., 'AAPL_US_EQ'). Use search_instrument to find valid tickers" is read."""
    return EXAMPLE_VALUE.search(line) is not None and TOOL_NAME.search(_QUOTED.sub("", line)) is None


def _squashed(text: str) -> str:
    return re.sub(r"[\W_]+", "", text).lower()
