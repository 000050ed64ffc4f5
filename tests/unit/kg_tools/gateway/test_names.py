"""The gateway's tool names (kg_tools/gateway/names.py): short, unique and deterministic."""

from __future__ import annotations

from kg_tools.gateway.names import MAX_LENGTH, qualified_name


def test_names_are_short_unique_and_deterministic():
    assert qualified_name("time", "get_current_time") == "time__get_current_time"
    long = [qualified_name("a-long-server-name", f"{'x' * 60}_{i}") for i in range(50)]
    assert all(len(n) <= MAX_LENGTH for n in long) and len(set(long)) == 50
    assert long[0] == qualified_name("a-long-server-name", f"{'x' * 60}_0")
    assert qualified_name("s", "tool with spaces") != qualified_name("s", "tool_with_spaces")
