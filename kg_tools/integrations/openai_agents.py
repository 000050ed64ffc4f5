"""OpenAI Agents SDK: an agent on `kg-tools gateway` over MCP, and kg-tools as the tool search of an agent
whose tools are Python functions (`pip install 'kg-tools[openai-agents]'`).

    async with gateway_server("gateway.json") as gateway:                 # search_tools, get_tool, call_tool
        result = await Runner.run(Agent("ops", mcp_servers=[gateway]), "what time is it in Tokyo?")

    search = FunctionToolSearch(kg, my_functions, k=3, K=5)                # one per conversation
    agent = Agent("assistant", model=model, tools=search.tools())        # the model sees search_tools first

The SDK's own `ToolSearchTool` is a hosted Responses tool (the runner does not execute a client-side
search), so the function-tool search uses the SDK's dynamic seam instead: every function is a
`FunctionTool` whose `is_enabled` is true once `search_tools` has returned it, so the model sees the
search tool plus the tools kg-tools found so far, with their real schemas, on any model (Chat Completions
too)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from agents import FunctionTool, RunContextWrapper, function_tool
from agents.mcp import MCPServerStdio

from kg_tools.client import AsyncKgToolsClient
from kg_tools.integrations.calls import FunctionCalls

SEARCH_DESCRIPTION = (
    "Find the tools that can do what you describe (several steps may be named in one query). "
    "The tools found become callable on your next turn."
)


def gateway_server(
    config: str | Path,
    *,
    command: Sequence[str] = ("kg-tools",),
    profile: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    name: str = "kg-tools",
    client_session_timeout_seconds: float = 120,
    **options: Any,
) -> MCPServerStdio:
    """An `MCPServerStdio` that starts `kg-tools gateway --config CONFIG` (docs/gateway.md): the agent
    gets the gateway's `search_tools`, `get_tool` and `call_tool`, never the upstreams' full tool lists.
    `command`: how to run kg-tools (e.g. `(sys.executable, "-m", "kg_tools.cli")`); `env`: the
    gateway's environment (Neo4j settings; the current one when None); `options`: other
    `MCPServerStdio` arguments. The timeout is generous: the gateway syncs its upstreams on start."""
    args = [*command[1:], "gateway", "--config", str(config)]
    if profile:
        args += ["--profile", profile]
    params: dict[str, Any] = {"command": command[0], "args": args, "env": dict(env if env is not None else os.environ)}
    if cwd is not None:
        params["cwd"] = str(cwd)
    return MCPServerStdio(
        params,  # type: ignore[arg-type]
        name=name,
        cache_tools_list=True,  # the gateway's three tools never change
        client_session_timeout_seconds=client_session_timeout_seconds,
        **options,
    )


class FunctionToolSearch:
    """kg-tools as the tool search of an agent whose tools are Python functions (their catalog loaded
    into kg-tools, e.g. with `catalog_from_functions`). `tools()` is `search_tools` plus one
    `FunctionTool` per function, each enabled once a search returned it. `fields`: retrieve request
    fields (k, K, catalog ...). The found set lives on this object: use one per conversation
    (`reset()` to start over)."""

    def __init__(
        self,
        client: AsyncKgToolsClient,
        functions: Mapping[str, Callable[..., Any]] | Iterable[Callable[..., Any]],
        **fields: Any,
    ):
        self.client, self.fields = client, fields
        self.calls = FunctionCalls(functions)
        self.found: list[str] = []

    def reset(self) -> None:
        self.found.clear()

    async def search(self, query: str) -> list[dict[str, Any]]:
        """The tools kg-tools retrieves for `query` among this agent's functions (name and description),
        added to the found set."""
        hits = [h for h in (await self.client.retrieve(query, **self.fields)).tools if h.name in self.calls]
        self.found.extend(h.name for h in hits if h.name not in self.found)
        return [
            {"name": h.name, "description": (h.function.get("function") or {}).get("description", "")} for h in hits
        ]

    def tools(self) -> list[FunctionTool]:
        async def run_search(_ctx: Any, arguments: str) -> str:
            query = str(json.loads(arguments or "{}").get("query") or "")
            if not query.strip():
                return "error: search_tools needs a non-empty `query`"
            return json.dumps({"tools": await self.search(query)})

        search = FunctionTool(
            name="search_tools",
            description=SEARCH_DESCRIPTION,
            params_json_schema={
                "type": "object",
                "properties": {"query": {"type": "string", "description": "what the tools should do"}},
                "required": ["query"],
                "additionalProperties": False,
            },
            on_invoke_tool=run_search,
        )
        return [search, *(self._tool(name, f) for name, f in self.calls.functions.items())]

    def _tool(self, name: str, f: Callable[..., Any]) -> FunctionTool:
        def enabled(_ctx: RunContextWrapper[Any], _agent: Any) -> bool:
            return name in self.found

        return function_tool(f, name_override=name, is_enabled=enabled, strict_mode=False)
