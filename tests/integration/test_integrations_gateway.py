"""An OpenAI Agents SDK agent on `kg-tools gateway` over MCP (kg_tools.integrations.openai_agents): the SDK's
`MCPServerStdio` starts the gateway with a real upstream MCP server (tests/support/gateway_upstream.py), the SDK's
runner drives a scripted model (tests/fake_openai.py) that searches, then calls the upstream tool through
the gateway's `call_tool`."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest
from agents import Agent, OpenAIChatCompletionsModel, RunConfig, Runner
from openai import AsyncOpenAI

from kg_tools import PROJECT_ROOT
from kg_tools.integrations.openai_agents import gateway_server
from tests.conftest import wipe
from tests.support.cli_process import kg_tools_env
from tests.support.fake_openai import FakeOpenAI

pytestmark = pytest.mark.integration

UPSTREAM = PROJECT_ROOT / "tests" / "support" / "gateway_upstream.py"


def tool_text(content) -> str:
    """A tool message's content as text: a string, or the text of its content parts."""
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if isinstance(part, dict))


def search_answer(text: str) -> dict:
    """The gateway's search_tools answer inside what the SDK sent back (its JSON, or a text block of it)."""
    value = json.loads(text)
    while not (isinstance(value, dict) and "tools" in value):
        value = json.loads(value["text"] if isinstance(value, dict) else value[0]["text"])
    return value


def test_openai_agents_run_on_the_gateway(settings, graph, embedder, tmp_path):

    wipe(graph)
    config = tmp_path / "gateway.json"
    config.write_text(json.dumps({"mcpServers": {"dynamic": {"command": sys.executable, "args": [str(UPSTREAM)]}}}))
    seen: list[list[str]] = []

    def search_then_call(request: dict) -> object:
        seen.append(sorted(t["function"]["name"] for t in request.get("tools", [])))
        results = [tool_text(m["content"]) for m in request["messages"] if m["role"] == "tool"]
        if not results:
            return {"tool_calls": [{"name": "search_tools", "arguments": {"query": "echo the given text back"}}]}
        if len(results) == 1:
            found = search_answer(results[0])
            name = found["tools"][0]["name"]
            return {"tool_calls": [{"name": "call_tool", "arguments": {"name": name, "arguments": {"text": "hi"}}}]}
        return f"upstream said: {results[-1]}"

    async def main(base_url: str) -> str:
        command = (sys.executable, "-m", "kg_tools.cli")
        async with gateway_server(config, command=command, env=kg_tools_env(settings), cwd=PROJECT_ROOT) as gateway:
            model = OpenAIChatCompletionsModel("test-model", AsyncOpenAI(base_url=base_url, api_key="test"))
            agent = Agent("ops", model=model, mcp_servers=[gateway])
            run = await Runner.run(agent, "Echo hi", run_config=RunConfig(tracing_disabled=True))
            return str(run.final_output)

    with FakeOpenAI() as fake:
        fake.script(search_then_call)
        output = asyncio.run(asyncio.wait_for(main(fake.base_url), 600))
        searched = search_answer(
            next(tool_text(m["content"]) for m in fake.requests[1]["messages"] if m["role"] == "tool")
        )
    assert seen[0] == ["call_tool", "get_tool", "search_tools"]  # the gateway's three tools, never the upstream's
    assert searched["tools"][0]["name"] == "dynamic__echo"
    assert "hi" in output and output.startswith("upstream said:")
    wipe(graph)
