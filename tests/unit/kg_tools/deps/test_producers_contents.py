"""Thirteenth session, MCP recall: query statements name what the catalog's readers list, and what a reader's
description says it includes is the resource's own offer when nothing else reads it. Made-up tool lists."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups, offer_index, prepare, tool_kind
from kg_tools.deps.resources import included_resources
from tests.support.made_up_ops import described_tool as _tool


def _p(name: str, description: str = "", type_: str = "string") -> dict:
    return {"name": name, "type": type_, "description": description, "required": True}


def _fixed(tools: list[ToolInfo]) -> set[tuple[str, str, str | None]]:
    fixed, _ = candidate_groups(tools)
    return {(e.source, e.target, e.parameter_name) for e in fixed if e.method == "query-vocabulary"}


def test_a_plain_sql_runner_gets_no_vocabulary_edge():
    """`run_query(sql)` names no language or source: its tables are not looked up (measured: such edges lower the
    retrieval rows)."""
    tools = [
        _tool("run_query", "Run a SELECT on the PostgreSQL database", [_p("sql", "The statement")]),
        _tool("list_tables", "List all tables", []),
        _tool("describe_table", "Get the schema of a table", [_p("table_name")]),
    ]
    assert _fixed(tools) == set()


def test_a_query_language_named_by_the_tool_uses_the_readers_of_its_names_and_values():
    """`query_metricsdb(expr)`: the readers named after the same source that list names or values; a reader of
    another source, or of neither names nor values, is none."""
    tools = [
        _tool("query_metricsdb", "Run a query", [_p("expr", "The query expression")]),
        _tool("list_metricsdb_metric_names", "List metric names", []),
        _tool("list_metricsdb_label_values", "List label values", [_p("label")]),
        _tool("list_metricsdb_targets", "List scrape targets", []),
        _tool("list_logstore_label_values", "List label values", [_p("label")]),
    ]
    assert _fixed(tools) == {
        ("query_metricsdb", "list_metricsdb_metric_names", "expr"),
        ("query_metricsdb", "list_metricsdb_label_values", "expr"),
    }


def test_a_search_text_is_no_statement():
    """`search_notes(query)` is named after searching, not querying: its query is free text."""
    tools = [
        _tool("search_notes", "Full-text search over notes", [_p("query")]),
        _tool("list_notes_names", "List note names", []),
    ]
    assert _fixed(tools) == set()


def test_included_resources_in_brackets_and_an_included_id():
    assert included_resources("Get shelf layout (bins and slots) by shelf id") == ["bin", "slot"]
    assert included_resources("Fetch the caller, and their things (crates, pallets, docks).") == [
        "crate",
        "pallet",
        "dock",
    ]
    assert included_resources("Get the caller's profile, including default warehouse ID, email") == ["warehouse"]
    assert included_resources("Get a crate (optional, default 10)") == []


def _offers(tools: list[ToolInfo]) -> dict[str, list[tuple[str, bool]]]:
    prepared = prepare(tools)
    for t in prepared.values():
        t.kind = tool_kind(t)
    return {r: [(o.tool, o.primary) for o in offers] for r, offers in offer_index(prepared).items()}


def test_what_a_reader_says_it_includes_is_the_resources_own_offer_when_nothing_reads_it():
    tools = [
        _tool("get_shelf_layout", "Get shelf layout (bins and slots) by shelf id", [_p("shelf_id")]),
        _tool("list_slots", "List all slots", []),
        _tool("create_bin", "Create a bin", [_p("name")]),
    ]
    offers = _offers(tools)
    assert ("get_shelf_layout", True) in offers["bin"]  # only a create makes bins: the layout is where they are read
    assert ("get_shelf_layout", False) in offers["slot"]  # slots have their own list


def _operation(name: str, method: str, path: str, params: list[dict]) -> ToolInfo:
    http = {"method": method, "path": path, "operation_id": name}
    return ToolInfo.from_raw({"name": name, "description": "", "parameters": params, "http": http})


def test_operations_named_by_fastapi_operation_ids_are_of_one_server():
    """FastAPI's operationIds (`<function>_<path>_<method>`) put `__` around each path parameter: no gateway's
    `<server>__`, so the statement's readers in the same spec are found (eighteenth session, one reading of `__`)."""
    store = _p("store")
    store["in"] = "path"
    tools = [
        _operation("query_metricsdb_stores__store__query_post", "POST", "/stores/{store}/query", [store, _p("expr")]),
        _operation("list_metricsdb_metric_names_stores__store__names_get", "GET", "/stores/{store}/names", [store]),
    ]
    assert _fixed(tools) == {
        ("query_metricsdb_stores__store__query_post", "list_metricsdb_metric_names_stores__store__names_get", "expr")
    }
