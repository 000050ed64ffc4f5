"""LangGraph / LangChain: kg-tools chooses the tools a LangGraph agent's model sees, as a dynamic model
for `create_react_agent`, as langgraph-bigtool's `retrieve_tools_function`, as a LangChain retriever, and
retrieved tools become `StructuredTool`s bound to a call path (`pip install 'kg-tools[langgraph]'`).

    registry = [StructuredTool.from_function(f) for f in my_functions]   # their catalog loaded into kg-tools
    agent = create_react_agent(retrieved_tools_model(llm, kg, registry, K=5), registry)

langgraph-bigtool 0.0.3 (its latest) calls `ToolNode.inject_tool_args`, which langgraph-prebuilt 1.0
removed: its agent does not run on LangGraph 1.x; `retrieve_tools_function` keeps its contract for when it does."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import ConfigDict

from kg_tools.client import AsyncKgToolsClient, KgToolsClient
from kg_tools.integrations.calls import CallPath, runners
from kg_tools.retrieval.request import ToolHit


def _names(hits: Iterable[ToolHit], known: Iterable[str] | None) -> list[str]:
    allowed = set(known) if known is not None else None
    return [h.name for h in hits if allowed is None or h.name in allowed]


def retrieve_tools_function(
    client: KgToolsClient, known: Iterable[str] | None = None, **fields: Any
) -> Callable[[str], list[str]]:
    """bigtool's `retrieve_tools_function`: the ids of the tools kg-tools retrieves for the model's query,
    dependencies included, kept to `known` (the tool registry's keys) when given. `fields`: request fields
    (k, K, depth, catalog ...)."""

    def retrieve_tools(query: str) -> list[str]:
        """Retrieve the tools that can do what the query describes (several steps may be named)."""
        return _names(client.retrieve(query, **fields).tools, known)

    return retrieve_tools


def retrieve_tools_coroutine(
    client: AsyncKgToolsClient, known: Iterable[str] | None = None, **fields: Any
) -> Callable[[str], Awaitable[list[str]]]:
    """bigtool's `retrieve_tools_coroutine`: `retrieve_tools_function` for an async client."""

    async def retrieve_tools(query: str) -> list[str]:
        """Retrieve the tools that can do what the query describes (several steps may be named)."""
        return _names((await client.retrieve(query, **fields)).tools, known)

    return retrieve_tools


def retrieved_tools_model(
    llm: BaseChatModel, client: KgToolsClient, tools: Iterable[BaseTool], **fields: Any
) -> Callable[[Any, Any], Any]:
    """A dynamic model for `create_react_agent(model=..., tools=tools)`: before each model call, the latest
    user message is retrieved by kg-tools and the model is bound to those of `tools` only (in kg-tools'
    order). One retrieval per user message; the agent's ToolNode still holds every tool."""
    by_name = {t.name: t for t in tools}
    cache: dict[str, list[BaseTool]] = {}

    def model(state: Any, _runtime: Any) -> Any:
        messages = state["messages"] if isinstance(state, dict) else state.messages
        query = next((str(m.content) for m in reversed(messages) if isinstance(m, HumanMessage)), "")
        if query not in cache:
            names = _names(client.retrieve(query, **fields).tools, by_name) if query.strip() else []
            cache[query] = [by_name[n] for n in names]
        return llm.bind_tools(cache[query])

    return model


class KgToolsRetriever(BaseRetriever):
    """A LangChain retriever over kg-tools: one `Document` per retrieved tool (its description as content;
    name, kind, role, score, the OpenAI function schema and the edges it was reached by as metadata)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    client: KgToolsClient
    fields: dict[str, Any] = {}

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        hits = self.client.retrieve(query, **self.fields).tools
        return [
            Document(
                page_content=h.function.get("function", {}).get("description", ""),
                metadata={
                    "name": h.name,
                    "kind": h.kind,
                    "role": h.role,
                    "score": h.score,
                    "function": h.function,
                    "via": [v.model_dump(by_alias=True) for v in h.via],
                },
            )
            for h in hits
        ]


def structured_tools(hits: Iterable[ToolHit], calls: CallPath) -> list[StructuredTool]:
    """Retrieved tools as `StructuredTool`s with their JSON schema, run by `calls` (`FunctionCalls` for
    Python functions, `GatewayCalls` for upstream servers behind `kg-tools gateway`)."""
    tools = []
    for hit in hits:
        function = hit.function.get("function") or {}
        run_sync, run = runners(hit.name, calls)
        tools.append(
            StructuredTool(
                name=hit.name,
                description=function.get("description") or hit.name,
                args_schema=function.get("parameters") or {"type": "object", "properties": {}},
                func=run_sync,
                coroutine=run,
            )
        )
    return tools
