"""An `export_*` tool reads what it names, unless it is a POST that starts an export job or file
(kg_tools/deps/producers.py `_reads`, twenty-sixth session). Small made-up tools, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups, prepare, tool_kind
from tests.support.made_up_ops import op


def _tool(name: str, description: str, *params: str) -> ToolInfo:
    """A server's tool (no HTTP operation) taking required string `params`."""
    parameters = [{"name": p, "type": "string", "description": "", "required": True} for p in params]
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": parameters})


def _kind(tool: ToolInfo) -> str:
    return tool_kind(prepare([tool])[tool.name])


def test_a_servers_export_of_a_plural_reads_a_list():
    assert _kind(_tool("export_gizmos", "Export gizmos from the workspace.")) == "list"


def test_an_export_sent_as_a_post_is_not_a_read():
    posted = op("export_gizmos", "POST", "/gizmos/csv_export", [])
    assert _kind(posted) not in ("list", "get", "search")


def test_a_servers_export_is_a_candidate_for_the_id_it_lists():
    tools = [
        _tool("export_gizmos", "Export gizmos from the workspace."),
        _tool("delete_gizmo", "Delete one gizmo.", "gizmo_id"),
    ]
    _, groups = candidate_groups(tools)
    producers = {
        c.producer.name
        for g in groups
        for c in g
        if c.consumer.name == "delete_gizmo" and c.want.parameter == "gizmo_id"
    }
    assert "export_gizmos" in producers
