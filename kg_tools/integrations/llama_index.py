"""LlamaIndex: an `ObjectRetriever` over kg-tools whose objects are `FunctionTool`s bound to a call path,
for `FunctionAgent(tool_retriever=...)`, `ReActAgent` or an `AgentWorkflow`
(`pip install 'kg-tools[llama-index]'`).

    retriever = KgToolsObjectRetriever(kg, FunctionCalls(my_functions), k=3, K=5)
    agent = FunctionAgent(llm=llm, tool_retriever=retriever)     # each run sees the tools for its input

The agent retrieves once per run with the user's input; the LLM sees those tools only, with the JSON
schema stored in kg-tools."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from llama_index.core.objects.base import ObjectRetriever
from llama_index.core.schema import QueryBundle, QueryType
from llama_index.core.tools import BaseTool, FunctionTool, ToolMetadata

from kg_tools.client import AsyncKgToolsClient, KgToolsClient
from kg_tools.integrations.calls import CallPath, runners
from kg_tools.retrieval.request import ToolHit


@dataclass
class JsonSchemaToolMetadata(ToolMetadata):
    """Tool metadata whose parameters are a JSON schema (kg-tools stores schemas, not pydantic models)."""

    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})

    def get_parameters_dict(self) -> dict[str, Any]:
        return self.parameters


def function_tools(hits: list[ToolHit], calls: CallPath) -> list[BaseTool]:
    """Retrieved tools as LlamaIndex `FunctionTool`s run by `calls` (`FunctionCalls`, `GatewayCalls`)."""
    tools: list[BaseTool] = []
    for hit in hits:
        function = hit.function.get("function") or {}
        run_sync, run = runners(hit.name, calls)
        metadata = JsonSchemaToolMetadata(
            description=function.get("description") or hit.name,
            name=hit.name,
            parameters=function.get("parameters") or {"type": "object", "properties": {}},
        )
        tools.append(FunctionTool(fn=run_sync, async_fn=run, metadata=metadata))
    return tools


class KgToolsObjectRetriever(ObjectRetriever[BaseTool]):
    """An `ObjectRetriever` of tools: the query goes to kg-tools, the hits come back as `FunctionTool`s.
    `client`: a sync client (for `retrieve`) or an async one (for `aretrieve`, what agents call; a sync
    client serves both). `fields`: retrieve request fields (k, K, catalog ...)."""

    def __init__(self, client: KgToolsClient | AsyncKgToolsClient, calls: CallPath, **fields: Any):
        # No node retriever or object-node mapping: kg-tools returns the tools themselves.
        self.client, self.calls, self.fields = client, calls, fields
        self._node_postprocessors = []

    def retrieve(self, str_or_query_bundle: QueryType) -> list[BaseTool]:
        if not isinstance(self.client, KgToolsClient):
            raise TypeError("retrieve() needs a KgToolsClient; with an AsyncKgToolsClient use aretrieve()")
        query = _query(str_or_query_bundle)
        hits = self.client.retrieve(query, **self.fields).tools if query.strip() else []
        return function_tools(hits, self.calls)

    async def aretrieve(self, str_or_query_bundle: QueryType) -> list[BaseTool]:
        query = _query(str_or_query_bundle)
        if not query.strip():
            return []
        if isinstance(self.client, KgToolsClient):
            hits = self.client.retrieve(query, **self.fields).tools
        else:
            hits = (await self.client.retrieve(query, **self.fields)).tools
        return function_tools(hits, self.calls)


def _query(query: QueryType) -> str:
    return query.query_str if isinstance(query, QueryBundle) else str(query)
