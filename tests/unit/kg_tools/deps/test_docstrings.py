"""kg_tools/deps/docstrings.py: parameters described only in a docstring's "Args:" block. Made-up tools."""

from __future__ import annotations

import time

from kg_tools.deps.docstrings import DOCSTRING, args_block, described_parameters
from kg_tools.deps.offline import ToolInfo, parameter_text
from kg_tools.deps.producers import infer_producers
from tests.support.made_up_ops import described_tool, required_string

_LIST_SHELF = """List the boxes on a shelf.

    Args:
        shelf_href: The href of the shelf (from list_shelves).
        since (str): Only boxes stored after this date,
            as YYYY-MM-DD.

    Returns:
        The boxes.
"""


def test_the_block_gives_each_parameter_its_text_with_continuation_lines():
    assert args_block(_LIST_SHELF) == {
        "shelf_href": "The href of the shelf (from list_shelves).",
        "since": "Only boxes stored after this date, as YYYY-MM-DD.",
    }
    assert args_block("List the boxes. Args: none") == {}
    # a docstring written with CRLF line ends (s25rev: its block went unread)
    assert args_block(_LIST_SHELF.replace("\n", "\r\n")) == args_block(_LIST_SHELF)


def test_a_parameter_keeps_its_own_description_and_a_title_gives_way_to_the_block():
    line = args_block(_LIST_SHELF)["shelf_href"]
    params = [
        {"name": "shelf_href", "description": "Shelf Href"},
        {"name": "since"},
        {"name": "owner", "description": "Owner"},
    ]
    assert described_parameters(_LIST_SHELF, params) == [
        {"name": "shelf_href", "description": line, DOCSTRING: True},
        {"name": "since", "description": "Only boxes stored after this date, as YYYY-MM-DD.", DOCSTRING: True},
        {"name": "owner", "description": "Owner"},  # no line of its own
    ]
    own = [{"name": "shelf_href", "description": "Any shelf"}]
    assert described_parameters(_LIST_SHELF, own) == own


def test_every_rule_reads_the_line_as_the_parameters_description():
    """ToolInfo.from_raw fills it in: the scorer's parameter text reads it as the rules do."""
    tool = ToolInfo.from_raw(
        {"name": "list_boxes", "description": _LIST_SHELF, "parameters": [required_string("since", "Since")]}
    )
    assert parameter_text(tool.parameters[0]) == "since: Only boxes stored after this date, as YYYY-MM-DD."
    assert tool.spec.parameters[0].description == "Since"  # the catalog's own schema is left as it is


def test_a_tool_the_block_names_as_a_parameters_source_provides_it():
    """`list_boxes(shelf_href)` has no description in its schema; its docstring says "(from list_shelves)"."""
    tools = [
        described_tool("list_shelves", "List all shelves with their href and name.", []),
        described_tool("list_boxes", _LIST_SHELF, [required_string("shelf_href", "Shelf Href")]),
    ]
    edges = {(e.source, e.parameter_name, e.target) for e in infer_producers(tools)}
    assert ("list_boxes", "shelf_href", "list_shelves") in edges


def test_a_block_line_names_a_source_by_its_exact_name_only():
    """ "Optional. Delete from this shelf/rack's boxes.": the phrase is the scope of the call, no source (a schema's
    own description is read for phrases as before)."""
    block = "Delete boxes.\n\n    Args:\n        shelf_id: Optional. Delete from this shelf/rack's boxes.\n"
    tools = [
        described_tool("create_shelf", "Create a shelf.", [required_string("name", "Its name")]),
        described_tool("delete_boxes", block, [required_string("shelf_id", "Shelf Id")]),
    ]
    described = [e for e in infer_producers(tools) if "its description" in e.reason]
    assert described == []


def test_a_line_that_only_shows_an_example_value_stays_unread():
    """ "Name of the shelf (e.g., "attic")": a name the caller types; a line that also names a tool is read."""
    block = (
        'Get a shelf.\n\n    Args:\n        shelf: Name of the shelf (e.g., "attic").\n'
        "        box: Box code (e.g. 'BX_1'). Use search_boxes to find valid codes.\n"
    )
    params = [{"name": "shelf", "description": "Shelf"}, {"name": "box"}]
    assert described_parameters(block, params) == [
        {"name": "shelf", "description": "Shelf"},
        {
            "name": "box",
            "description": "Box code (e.g. 'BX_1'). Use search_boxes to find valid codes.",
            DOCSTRING: True,
        },
    ]


def test_a_long_run_of_blanks_is_read_in_linear_time():
    """A 10,000-character description (the most a tool keeps) with a long run of spaces after a name, or after
    "e.g.", took seconds per tool when two runs of blanks stood side by side in a pattern."""
    start = time.perf_counter()
    assert args_block("Args:\n    a" + " " * 9_000 + "\n") == {}
    params = [{"name": "a"}]
    assert described_parameters("Args:\n    a: e.g." + " " * 9_000 + "x", params)[0][DOCSTRING]
    assert time.perf_counter() - start < 0.5
