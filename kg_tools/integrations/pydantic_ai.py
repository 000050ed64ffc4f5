"""PydanticAI: kg-tools as the search strategy of `ToolSearch` for deferred function tools, and a toolset
that shows the model the tools kg-tools retrieves for the run's request (`pip install 'kg-tools[pydantic-ai]'`).

    agent = Agent(model, toolsets=[FunctionToolset(my_functions, defer_loading=True)],
                  capabilities=[ToolSearch(strategy=kg_tools_search(kg))])     # the model searches, kg-tools answers
    agent = Agent(model, toolsets=[KgToolsToolset(kg, GatewayCalls(session))])   # tools chosen per request"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from pydantic_ai import RunContext, Tool
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import AbstractToolset, FunctionToolset, ToolsetTool

from kg_tools.client import AsyncKgToolsClient
from kg_tools.integrations.calls import CallPath
from kg_tools.retrieval.request import ToolHit


def kg_tools_search(
    client: AsyncKgToolsClient, **fields: Any
) -> Callable[[RunContext[Any], Sequence[str], Sequence[ToolDefinition]], Awaitable[list[str]]]:
    """A `ToolSearch(strategy=...)` callable: each query the model sends is retrieved by kg-tools; the
    names returned are the agent's deferred tools among the hits, in kg-tools' order, without repeats."""

    async def search(_ctx: RunContext[Any], queries: Sequence[str], tools: Sequence[ToolDefinition]) -> list[str]:
        known = {t.name for t in tools}
        names: list[str] = []
        for query in queries:
            for hit in (await client.retrieve(query, **fields)).tools:
                if hit.name in known and hit.name not in names:
                    names.append(hit.name)
        return names

    return search


class KgToolsToolset(AbstractToolset[Any]):
    """The tools kg-tools retrieves for the run's user prompt, run by `calls` (`FunctionCalls`,
    `GatewayCalls`). Retrieval runs once per prompt; the model never sees the rest of the catalog."""

    def __init__(self, client: AsyncKgToolsClient, calls: CallPath, *, id: str = "kg-tools", **fields: Any):  # noqa: A002
        self.client, self.calls, self.fields, self._id = client, calls, fields, id
        self._cache: tuple[str, FunctionToolset[Any]] | None = None

    @property
    def id(self) -> str | None:
        return self._id

    async def _toolset(self, prompt: str) -> FunctionToolset[Any]:
        if self._cache is None or self._cache[0] != prompt:
            hits = (await self.client.retrieve(prompt, **self.fields)).tools if prompt.strip() else []
            self._cache = (prompt, FunctionToolset([self._tool(h) for h in hits]))
        return self._cache[1]

    def _tool(self, hit: ToolHit) -> Tool[Any]:
        function = hit.function.get("function") or {}

        async def run(**arguments: Any) -> Any:
            return await self.calls.call(hit.name, arguments)

        parameters = function.get("parameters") or {"type": "object", "properties": {}}
        return Tool.from_schema(run, hit.name, function.get("description"), parameters)

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        return await (await self._toolset(_prompt_text(ctx.prompt))).get_tools(ctx)

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        return await (await self._toolset(_prompt_text(ctx.prompt))).call_tool(name, tool_args, ctx, tool)


def _prompt_text(prompt: Any) -> str:
    if isinstance(prompt, str) or prompt is None:
        return prompt or ""
    return " ".join(part for part in prompt if isinstance(part, str))
