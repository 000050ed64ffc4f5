"""How a tool that kg-tools retrieved is run: the adapters bind retrieved tools to one of these.

- `FunctionCalls`: the agent's own Python functions, by tool name (a catalog loaded from them:
  `catalog_from_functions`);
- `GatewayCalls`: an MCP client session to `kg-tools gateway`, whose `call_tool` reaches the upstream
  server (the gateway checks policy and arguments)."""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Protocol, cast

from pydantic import TypeAdapter

from kg_tools.errors import ToolNotFoundError


class CallPath(Protocol):
    async def call(self, name: str, arguments: dict[str, Any]) -> Any: ...


class FunctionCalls:
    """Python callables (sync or async) by tool name."""

    def __init__(self, functions: Mapping[str, Callable[..., Any]] | Iterable[Callable[..., Any]]):
        items = functions.items() if isinstance(functions, Mapping) else ((f.__name__, f) for f in functions)
        self.functions = dict(items)

    def __contains__(self, name: object) -> bool:
        return name in self.functions

    def function(self, name: str) -> Callable[..., Any]:
        try:
            return self.functions[name]
        except KeyError:
            raise ToolNotFoundError(name) from None

    def call_sync(self, name: str, arguments: dict[str, Any]) -> Any:
        result = self.function(name)(**arguments)
        if inspect.isawaitable(result):
            raise TypeError(f"{name} is a coroutine function: call it with `await call(...)`")
        return result

    async def call(self, name: str, arguments: dict[str, Any]) -> Any:
        result = self.function(name)(**arguments)
        return await result if inspect.isawaitable(result) else result


class GatewayCalls:
    """Calls through `kg-tools gateway` over MCP: `session` is an initialised `mcp.ClientSession`.
    The result is the text of the tool's content blocks (structured content as JSON when it has no text);
    an `isError` result raises `RuntimeError` with that text."""

    def __init__(self, session: Any):
        self.session = session

    async def call(self, name: str, arguments: dict[str, Any]) -> Any:
        result = await self.session.call_tool("call_tool", {"name": name, "arguments": arguments})
        text = "\n".join(getattr(block, "text", "") for block in result.content if getattr(block, "text", None))
        if not text and result.structuredContent is not None:
            text = json.dumps(result.structuredContent)
        if result.isError:
            raise RuntimeError(text or f"{name} failed")
        return text


def runners(name: str, calls: CallPath) -> tuple[Callable[..., Any], Callable[..., Awaitable[Any]]]:
    """(sync, async) functions of keyword arguments that run tool `name` by `calls`; the sync one
    raises NotImplementedError for an async-only path (the gateway: use the framework's async call)."""

    async def run(**arguments: Any) -> Any:
        return await calls.call(name, arguments)

    def run_sync(**arguments: Any) -> Any:
        if isinstance(calls, FunctionCalls):
            return calls.call_sync(name, arguments)
        raise NotImplementedError(f"{name} runs through an async call path: call it asynchronously")

    return run_sync, run


def catalog_from_functions(functions: Iterable[Callable[..., Any]]) -> list[dict[str, Any]]:
    """An OpenAI tool list (`kg-tools load` / `KgToolsClient.load` read it) describing Python functions:
    name, the docstring's first paragraph, and the JSON schema pydantic derives from the signature."""
    tools = []
    for f in functions:
        schema = TypeAdapter(cast(Any, f)).json_schema() if _has_parameters(f) else {"type": "object", "properties": {}}
        schema = {k: v for k, v in schema.items() if k in ("type", "properties", "required", "$defs")}
        schema.setdefault("type", "object")
        description = (inspect.getdoc(f) or "").split("\n\n", 1)[0].strip()
        tools.append(
            {"type": "function", "function": {"name": f.__name__, "description": description, "parameters": schema}}
        )
    return tools


def _has_parameters(f: Callable[..., Any]) -> bool:
    return bool(inspect.signature(f).parameters)
