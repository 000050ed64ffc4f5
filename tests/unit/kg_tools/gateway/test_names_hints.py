"""The gateway accepts VS Code's `"servers"` config beside `"mcpServers"`, and a bare upstream tool name
gets a "did you mean server__tool?" hint (issue 31 item 3)."""

from __future__ import annotations

import pytest

from kg_tools.errors import ConfigurationError, UnknownToolError
from kg_tools.gateway.config import parse_config
from tests.unit.kg_tools.gateway.test_service import AGENT, gateway


def test_vs_code_servers_config_is_accepted():
    config = parse_config(
        {
            "servers": {
                "git": {"type": "stdio", "command": "uvx", "args": ["mcp-server-git"]},
                "remote": {"type": "http", "url": "https://example.com/mcp"},
            },
            "inputs": [],
        }
    )
    assert sorted(config.servers) == ["git", "remote"] and config.servers["remote"].url == "https://example.com/mcp"
    with pytest.raises(ConfigurationError, match='give "mcpServers" or VS Code\'s "servers", not both'):
        parse_config({"mcpServers": {"a": {"command": "a"}}, "servers": {"b": {"command": "b"}}})
    with pytest.raises(ConfigurationError, match='expected an object with "mcpServers"'):
        parse_config({"tools": {}})


def test_a_bare_tool_name_gets_a_did_you_mean():
    g = gateway()
    with pytest.raises(UnknownToolError, match=r"unknown tool 'read': .*did you mean `fs__read`\?"):
        g.check(*AGENT, "read")
    # a tool the profile cannot see is not suggested
    with pytest.raises(UnknownToolError) as refused:
        g.check(*AGENT, "delete")
    assert "fs__delete" not in str(refused.value) and "use search_tools" in str(refused.value)
