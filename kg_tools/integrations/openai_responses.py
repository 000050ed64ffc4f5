"""OpenAI Responses API: kg-tools as a client-executed `tool_search` (`pip install 'kg-tools[openai]'`).

The request carries one tool, `{"type": "tool_search", "execution": "client", ...}`; no catalog is sent.
When the model emits a `tool_search_call`, the client answers with a `tool_search_output` item whose
`tools` are the functions kg-tools retrieves, grouped in namespaces (`server__tool` names, as the gateway
writes them, go in the `server` namespace; other names stay top-level functions). The model then emits
`function_call`s, which `calls` runs (`FunctionCalls`, `GatewayCalls`).

    search = ResponsesToolSearch(kg, FunctionCalls(my_functions), k=3, K=5)
    response = await openai.responses.create(model=..., input=items, tools=[search.tool()])
    while answers := await search.answer(response.output):          # tool_search_output / function_call_output
        items += [*response.output, *answers]
        response = await openai.responses.create(model=..., input=items, tools=[search.tool()])

For the hosted search (`execution: "server"`) over a catalog you send yourself, `deferred_tools(hits)`
gives the same functions with `defer_loading: true`, in their namespaces."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kg_tools.client import AsyncKgToolsClient, responses_tools
from kg_tools.integrations.calls import CallPath
from kg_tools.retrieval.request import ToolHit

SEARCH_DESCRIPTION = (
    "Search the available tools by what they do (several steps may be named in one query). "
    "The matching tools are loaded and can be called next."
)
SEARCH_PARAMETERS = {
    "type": "object",
    "properties": {"query": {"type": "string", "description": "what the tools should do"}},
    "required": ["query"],
    "additionalProperties": False,
}


def gateway_namespace(name: str) -> str | None:
    """`server` for a gateway tool `server__tool`; None (a top-level function) otherwise."""
    server, sep, _ = name.partition("__")
    return server if sep and server else None


def grouped_tools(
    hits: Iterable[ToolHit],
    *,
    namespace: Callable[[str], str | None] = gateway_namespace,
    descriptions: Mapping[str, str] | None = None,
    defer_loading: bool = False,
) -> list[dict[str, Any]]:
    """Responses function tools for `hits`, those with a namespace inside `{"type": "namespace", ...}`
    (in order of first appearance; `descriptions` names what each namespace is for). Namespaced
    functions keep their full name."""
    out: list[dict[str, Any]] = []
    spaces: dict[str, dict[str, Any]] = {}
    hits = list(hits)
    for hit, tool in zip(hits, responses_tools(hits), strict=True):
        if defer_loading:
            tool["defer_loading"] = True
        space = namespace(hit.name)
        if space is None:
            out.append(tool)
            continue
        if space not in spaces:
            description = (descriptions or {}).get(space) or f"Tools of the {space} server."
            spaces[space] = {"type": "namespace", "name": space, "description": description, "tools": []}
            out.append(spaces[space])
        spaces[space]["tools"].append(tool)
    return out


def deferred_tools(hits: Iterable[ToolHit], **options: Any) -> list[dict[str, Any]]:
    """`grouped_tools` with `defer_loading: true`, for the hosted tool search (`{"type": "tool_search"}`)."""
    return grouped_tools(hits, defer_loading=True, **options)


class ResponsesToolSearch:
    """A client-executed `tool_search` answered by kg-tools, and the function calls that follow run by
    `calls`. `fields`: retrieve request fields (k, K, catalog ...); `namespace`/`descriptions`: how
    retrieved tools are grouped (see `grouped_tools`)."""

    def __init__(
        self,
        client: AsyncKgToolsClient,
        calls: CallPath,
        *,
        namespace: Callable[[str], str | None] = gateway_namespace,
        descriptions: Mapping[str, str] | None = None,
        **fields: Any,
    ):
        self.client, self.calls, self.fields = client, calls, fields
        self.namespace, self.descriptions = namespace, descriptions
        self.loaded: list[str] = []

    def tool(self) -> dict[str, Any]:
        """The request's `tool_search` tool (client execution, our query schema)."""
        return {
            "type": "tool_search",
            "execution": "client",
            "description": SEARCH_DESCRIPTION,
            "parameters": SEARCH_PARAMETERS,
        }

    async def search_output(self, call: Any) -> dict[str, Any]:
        """The `tool_search_output` input item answering a `tool_search_call` item."""
        arguments = _get(call, "arguments")
        if isinstance(arguments, str):
            arguments = json.loads(arguments or "{}")
        query = str((arguments or {}).get("query") or "")
        hits = (await self.client.retrieve(query, **self.fields)).tools if query.strip() else []
        self.loaded.extend(h.name for h in hits if h.name not in self.loaded)
        tools = grouped_tools(hits, namespace=self.namespace, descriptions=self.descriptions)
        return {
            "type": "tool_search_output",
            "call_id": _get(call, "call_id"),
            "execution": "client",
            "status": "completed",
            "tools": tools,
        }

    async def function_output(self, call: Any) -> dict[str, Any]:
        """The `function_call_output` input item answering a `function_call` item (a failure is told
        to the model as the output text)."""
        name = _get(call, "name")
        try:
            arguments = json.loads(_get(call, "arguments") or "{}")
            result = await self.calls.call(name, arguments)
            output = result if isinstance(result, str) else json.dumps(result, default=str)
        except Exception as e:  # the model reads the error and can correct its call
            output = f"error: {name} failed: {e}"
        return {"type": "function_call_output", "call_id": _get(call, "call_id"), "output": output}

    async def answer(self, output: Iterable[Any]) -> list[dict[str, Any]]:
        """The input items answering a response's `output`: one per client `tool_search_call` and per
        `function_call`, in order. Empty when the model asked for nothing (its turn is over)."""
        answers = []
        for item in output:
            kind = _get(item, "type")
            if kind == "tool_search_call" and _get(item, "execution") == "client":
                answers.append(await self.search_output(item))
            elif kind == "function_call":
                answers.append(await self.function_output(item))
        return answers


def _get(item: Any, key: str) -> Any:
    return item.get(key) if isinstance(item, dict) else getattr(item, key, None)
