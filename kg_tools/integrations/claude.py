"""Claude (Messages API): kg-tools as a custom tool-search tool. The tools are sent with
`defer_loading: true` (Claude sees only their names until a search loads them); the search tool is an
ordinary client tool whose `tool_result` holds one `{"type": "tool_reference", "tool_name": ...}` block per
tool kg-tools retrieves, which makes Claude load those definitions (`pip install 'kg-tools[anthropic]'`).

    search = ClaudeToolSearch(kg, my_functions, k=3, K=5)
    runner = client.beta.messages.tool_runner(model=..., max_tokens=1024, messages=[...], tools=search.runnable_tools())
    for message in runner: ...                                  # the SDK's loop runs search and tools

or, in a plain loop: `tools=search.tool_definitions()`, and for each `tool_use` block `await search.tool_result(block)`
(the search answered with tool references, any other tool run by `calls`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from anthropic.lib.tools import BetaAsyncFunctionTool, BetaFunctionTool, beta_async_tool, beta_tool
from anthropic.types import ToolParam, ToolReferenceBlockParam, ToolResultBlockParam

from kg_tools.client import AsyncKgToolsClient, KgToolsClient
from kg_tools.integrations.calls import CallPath, FunctionCalls, catalog_from_functions
from kg_tools.retrieval.request import ToolHit

SEARCH_TOOL = "search_tools"
SEARCH_DESCRIPTION = (
    "Search the available tools by what they do (several steps may be named in one query). "
    "The matching tools are loaded and can be called next."
)
SEARCH_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {"query": {"type": "string", "description": "what the tools should do"}},
    "required": ["query"],
}


def tool_references(hits: Iterable[ToolHit], known: Iterable[str] | None = None) -> list[ToolReferenceBlockParam]:
    """`tool_reference` blocks for retrieved tools (kept to `known`, the deferred tools' names)."""
    allowed = set(known) if known is not None else None
    return [{"type": "tool_reference", "tool_name": h.name} for h in hits if allowed is None or h.name in allowed]


def search_tool_definition(name: str = SEARCH_TOOL) -> ToolParam:
    return {"name": name, "description": SEARCH_DESCRIPTION, "input_schema": SEARCH_SCHEMA}  # type: ignore[typeddict-item]


class ClaudeToolSearch:
    """Deferred tools plus a kg-tools search tool for one Claude agent. `tools`: Python functions (run
    in-process), or the retrieved tools' definitions (`anthropic_tools(...)`, e.g. the gateway's
    catalog) with a `calls` path (`GatewayCalls`). `client`: sync or async kg-tools client; `fields`:
    retrieve request fields (k, K, catalog ...)."""

    def __init__(
        self,
        client: KgToolsClient | AsyncKgToolsClient,
        tools: Mapping[str, Callable[..., Any]] | Iterable[Callable[..., Any]] | Iterable[dict[str, Any]],
        calls: CallPath | None = None,
        *,
        name: str = SEARCH_TOOL,
        **fields: Any,
    ):
        items = list(tools.values() if isinstance(tools, Mapping) else tools)
        if all(callable(t) for t in items):
            self.functions: list[Callable[..., Any]] = items
            self.calls: CallPath = calls or FunctionCalls(tools)  # type: ignore[arg-type]
            catalog = catalog_from_functions(items)
            self.definitions = [
                {"name": f["name"], "description": f["description"], "input_schema": f["parameters"]}
                for f in (t["function"] for t in catalog)
            ]
        elif calls is None:
            raise ValueError("tool definitions need a `calls` path (GatewayCalls ...) to run them")
        else:
            self.functions, self.calls = [], calls
            self.definitions = [dict(t) for t in items]  # type: ignore[arg-type]
        self.client, self.name, self.fields = client, name, fields
        self.names = {d["name"] for d in self.definitions}

    # -- the request's tools -------------------------------------------------------------------

    def tool_definitions(self) -> list[dict[str, Any]]:
        """The search tool (not deferred) and every tool with `defer_loading: true`."""
        return [dict(search_tool_definition(self.name)), *({**d, "defer_loading": True} for d in self.definitions)]

    def runnable_tools(self) -> list[BetaFunctionTool[Any] | BetaAsyncFunctionTool[Any]]:
        """The same as SDK tools for `client.beta.messages.tool_runner` (a sync runner with a sync
        kg-tools client and Python functions; an async runner otherwise)."""
        if isinstance(self.client, KgToolsClient) and self.functions:
            return self._sync_tools()
        return self._async_tools()

    def _sync_tools(self) -> list[BetaFunctionTool[Any] | BetaAsyncFunctionTool[Any]]:
        client = self.client
        assert isinstance(client, KgToolsClient)

        def search(query: str) -> list[ToolReferenceBlockParam]:
            return self._references(client.retrieve(query, **self.fields).tools)

        tools: list[BetaFunctionTool[Any] | BetaAsyncFunctionTool[Any]] = [
            beta_tool(search, name=self.name, description=SEARCH_DESCRIPTION, input_schema=SEARCH_SCHEMA)
        ]
        tools += [beta_tool(f, defer_loading=True) for f in self.functions]
        return tools

    def _async_tools(self) -> list[BetaFunctionTool[Any] | BetaAsyncFunctionTool[Any]]:
        async def search(query: str) -> list[ToolReferenceBlockParam]:
            return await self.references(query)

        tools: list[BetaFunctionTool[Any] | BetaAsyncFunctionTool[Any]] = [
            beta_async_tool(search, name=self.name, description=SEARCH_DESCRIPTION, input_schema=SEARCH_SCHEMA)
        ]
        for d in self.definitions:
            tools.append(
                beta_async_tool(
                    self._runner(d["name"]),
                    name=d["name"],
                    description=d.get("description") or d["name"],
                    input_schema=d["input_schema"],
                    defer_loading=True,
                )
            )
        return tools

    def _runner(self, name: str) -> Callable[..., Any]:
        async def run(**arguments: Any) -> str:
            return _text(await self.calls.call(name, arguments))

        return run

    # -- answering tool_use blocks in a plain loop ---------------------------------------------

    async def references(self, query: str) -> list[ToolReferenceBlockParam]:
        """The `tool_result` content of a search for `query`: tool references, in kg-tools' order."""
        if isinstance(self.client, KgToolsClient):
            hits = self.client.retrieve(query, **self.fields).tools
        else:
            hits = (await self.client.retrieve(query, **self.fields)).tools
        return self._references(hits)

    def _references(self, hits: Iterable[ToolHit]) -> list[ToolReferenceBlockParam]:
        return tool_references(hits, self.names)

    async def tool_result(self, block: Any) -> ToolResultBlockParam:
        """The `tool_result` block answering a `tool_use` block (an SDK object or its dict): the search
        tool's answer is tool references; another tool is run by `calls` (its failure an `is_error` result)."""
        get: Callable[[str], Any] = block.get if isinstance(block, dict) else lambda key: getattr(block, key)
        name, tool_use_id, arguments = str(get("name")), str(get("id")), dict(get("input") or {})
        if name == self.name:
            query = str(arguments.get("query") or "")
            if not query.strip():
                return _error(tool_use_id, f"{self.name} needs a non-empty `query`")
            return {"type": "tool_result", "tool_use_id": tool_use_id, "content": await self.references(query)}
        try:
            output = await self.calls.call(name, arguments)
        except Exception as e:  # the model reads the error and can correct its call
            return _error(tool_use_id, f"{name} failed: {e}")
        return {"type": "tool_result", "tool_use_id": tool_use_id, "content": _text(output)}


def _text(output: Any) -> str:
    return output if isinstance(output, str) else json.dumps(output, default=str)


def _error(tool_use_id: str, message: str) -> ToolResultBlockParam:
    return {"type": "tool_result", "tool_use_id": tool_use_id, "content": message, "is_error": True}


__all__ = ["ClaudeToolSearch", "search_tool_definition", "tool_references"]
