"""Tools that report, count or sum a collection are no listers of its items (kg_tools/deps/producers.py, fifteenth
session, "report and count tools are not listers"). Small made-up tools, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import prepare, tool_kind, tool_offers
from tests.support.made_up_ops import listing


def _tool(name: str, description: str, output_schema: dict | None = None) -> ToolInfo:
    raw = {"name": name, "description": description, "parameters": []}
    return ToolInfo.from_raw(raw | ({"output_schema": output_schema} if output_schema else {}))


def _resources(tools: list[ToolInfo], name: str) -> set[str]:
    tool = prepare(tools)[name]
    tool.kind = tool_kind(tool)
    return {o.resource for o in tool_offers(tool)}


def test_a_report_or_count_without_an_output_schema_offers_no_ids_of_what_it_counts():
    """`reports_orders_totals` ("order totals by status") and `count_products` return numbers about orders and
    products, not their ids; `list_orders` still lists the orders."""
    tools = [
        _tool("reports_orders_totals", "Get a report of order totals by status."),
        _tool("count_products", "Count the products of the store."),
        _tool("get_customer_stats", "Get statistics about customers."),
        _tool("list_orders", "List orders."),
    ]
    assert "order" not in _resources(tools, "reports_orders_totals")
    assert "product" not in _resources(tools, "count_products")
    assert "customer" not in _resources(tools, "get_customer_stats")
    assert "order" in _resources(tools, "list_orders")


def test_a_list_of_reports_still_offers_the_reports_and_an_output_with_item_ids_stays_a_provider():
    """`list_reports` lists reports (a `report_id` takes one); a stats tool whose output schema carries the items'
    ids (`projects[].id`) offers them, as any reader of that schema does."""
    projects = listing("projects", "Project", "string")
    tools = [
        _tool("list_reports", "List the saved reports."),
        _tool("get_project_stats", "Get the projects' statistics.", projects),
    ]
    assert "report" in _resources(tools, "list_reports")
    assert "project" in _resources(tools, "get_project_stats")
