"""The gateway's tool names (kg_tools/gateway/names.py): short, unique and deterministic."""

from __future__ import annotations

from types import SimpleNamespace

from kg_tools.gateway.names import MAX_LENGTH, operation_id, qualified_name, split_gateway_name
from kg_tools.tool_spec import ToolSpec


def test_names_are_short_unique_and_deterministic():
    assert qualified_name("time", "get_current_time") == "time__get_current_time"
    long = [qualified_name("a-long-server-name", f"{'x' * 60}_{i}") for i in range(50)]
    assert all(len(n) <= MAX_LENGTH for n in long) and len(set(long)) == 50
    assert long[0] == qualified_name("a-long-server-name", f"{'x' * 60}_0")
    assert qualified_name("s", "tool with spaces") != qualified_name("s", "tool_with_spaces")


def test_a_gateway_name_is_read_once_an_operation_id_whole():
    """split_gateway_name: the one reading of `__` (eighteenth session)."""
    assert split_gateway_name("time__get_current_time") == ("time", "get_current_time")
    assert split_gateway_name("get_current_time") == ("", "get_current_time")
    assert split_gateway_name("__node_version") == ("", "node_version")
    op = "read_flow_flows__id__get"  # FastAPI: `<function>_<path>_<method>`
    assert split_gateway_name(op, op) == ("", op)
    assert split_gateway_name(op[:20], op) == ("", op[:20])  # a name cut short of its operationId
    assert split_gateway_name(f"prefect__{op}", op) == ("prefect", op)


def test_the_operation_id_of_a_record():
    assert operation_id(ToolSpec(name="a", http={"method": "GET", "path": "/a", "operation_id": "getA"})) == "getA"
    assert operation_id(SimpleNamespace(http={"operation_id": "getA"})) == "getA"
    assert operation_id(ToolSpec(name="a")) == "" and operation_id(None) == ""
