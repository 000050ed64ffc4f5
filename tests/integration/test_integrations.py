"""kg_tools.integrations inside each framework's own agent loop (issue 31): a scripted model asks for tools,
kg-tools (a real API on uvicorn, a real Neo4j) retrieves them, the model calls one and the Python function
really runs. The models are the frameworks' own fakes (LangChain's GenericFakeChatModel, PydanticAI's
FunctionModel)."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import StructuredTool
from langgraph.prebuilt import create_react_agent
from pydantic_ai import Agent
from pydantic_ai.capabilities import ToolSearch
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.toolsets import FunctionToolset

from kg_tools.api.app import create_app
from kg_tools.client import AsyncKgToolsClient, KgToolsClient
from kg_tools.integrations.calls import FunctionCalls, catalog_from_functions
from kg_tools.integrations.langgraph import (
    KgToolsRetriever,
    retrieve_tools_function,
    retrieved_tools_model,
    structured_tools,
)
from kg_tools.integrations.pydantic_ai import KgToolsToolset, kg_tools_search
from tests.support.http_server import serve_in_thread

pytestmark = pytest.mark.integration

RAN: list[tuple[str, dict]] = []


def get_weather(city: str) -> str:
    """Current weather and temperature for a city."""
    RAN.append(("get_weather", {"city": city}))
    return f"sunny in {city}, 21 C"


def send_email(to: str, subject: str, body: str) -> str:
    """Send an e-mail message to an address."""
    RAN.append(("send_email", {"to": to}))
    return "sent"


def convert_currency(amount: float, source: str, target: str) -> float:
    """Convert an amount of money from one currency to another."""
    RAN.append(("convert_currency", {"amount": amount}))
    return amount * 1.1


def create_calendar_event(title: str, start: str) -> str:
    """Create an event in the user's calendar at a start time."""
    RAN.append(("create_calendar_event", {"title": title}))
    return "created"


FUNCTIONS = [get_weather, send_email, convert_currency, create_calendar_event]


@pytest.fixture(scope="module")
def api(settings, graph, embedder):
    graph.write("MATCH (n) DETACH DELETE n")
    with serve_in_thread(create_app(settings, graph=graph, embedder=embedder)) as url:
        with KgToolsClient(url, timeout=300) as kg:  # the first load warms the embedder up
            kg.load("assistant", catalog_from_functions(FUNCTIONS), format="openai-tools")
        yield url
    graph.write("MATCH (n) DETACH DELETE n")


@pytest.fixture(autouse=True)
def fresh_log():
    RAN.clear()


def test_langgraph_agent_sees_only_what_kg_tools_retrieves_and_runs_the_tool(api):

    class ScriptedModel(GenericFakeChatModel):
        def bind_tools(self, tools, **kwargs):
            bound.append([t.name for t in tools])
            return self

    bound: list[list] = []
    script = [
        AIMessage("", tool_calls=[{"name": "get_weather", "args": {"city": "Paris"}, "id": "c1"}]),
        AIMessage("It is sunny in Paris."),
    ]
    registry = [StructuredTool.from_function(f) for f in FUNCTIONS]
    with KgToolsClient(api) as kg:
        model = retrieved_tools_model(ScriptedModel(messages=iter(script)), kg, registry, k=1, K=1)
        agent = create_react_agent(model, registry)
        state = agent.invoke({"messages": [HumanMessage("What's the weather in Paris?")]})
        assert bound == [["get_weather"], ["get_weather"]]  # the model saw only what kg-tools retrieved
        assert RAN == [("get_weather", {"city": "Paris"})]
        assert state["messages"][-1].content == "It is sunny in Paris."

        # langgraph-bigtool's seam: tool ids for a query, kept to the registry's
        retrieve = retrieve_tools_function(kg, ["send_email", "get_weather"], k=2, K=2)
        assert retrieve("send a mail to bob about the weather") == ["send_email", "get_weather"]
        docs = KgToolsRetriever(client=kg, fields={"k": 1, "K": 1}).invoke("mail a message to bob")
        assert [d.metadata["name"] for d in docs] == ["send_email"]
        tool = structured_tools(kg.retrieve("convert 10 dollars to euros", k=1, K=1).tools, FunctionCalls(FUNCTIONS))[0]
        assert tool.name == "convert_currency"
        assert tool.invoke({"amount": 10, "source": "USD", "target": "EUR"}) == pytest.approx(11.0)


def test_pydantic_ai_tool_search_and_toolset(api):

    seen: list[list[str]] = []

    def search_then_call(messages, info: AgentInfo) -> ModelResponse:
        seen.append(sorted(t.name for t in info.function_tools))
        returned = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        if not returned:
            return ModelResponse(parts=[ToolCallPart("search_tools", {"queries": ["weather forecast for a city"]})])
        if len(returned) == 1:
            return ModelResponse(parts=[ToolCallPart("get_weather", {"city": "Oslo"})])
        return ModelResponse(parts=[TextPart(f"done: {returned[-1].content}")])

    async def main():
        async with AsyncKgToolsClient(api) as kg:
            agent = Agent(
                FunctionModel(search_then_call),
                toolsets=[FunctionToolset(FUNCTIONS, defer_loading=True)],
                capabilities=[ToolSearch(strategy=kg_tools_search(kg, k=1, K=1))],
            )
            searched = await agent.run("How is the weather in Oslo?")

            def call_directly(messages, info: AgentInfo) -> ModelResponse:
                seen.append(sorted(t.name for t in info.function_tools))
                if any(isinstance(p, ToolReturnPart) for m in messages for p in getattr(m, "parts", [])):
                    return ModelResponse(parts=[TextPart("booked")])
                return ModelResponse(
                    parts=[ToolCallPart("create_calendar_event", {"title": "dentist", "start": "2026-12-01T09:00"})]
                )

            direct = Agent(
                FunctionModel(call_directly), toolsets=[KgToolsToolset(kg, FunctionCalls(FUNCTIONS), k=1, K=1)]
            )
            booked = await direct.run("Put a dentist appointment in my calendar for Monday 9am")
            return searched.output, booked.output

    searched, booked = asyncio.run(main())
    assert searched == "done: sunny in Oslo, 21 C"
    assert "get_weather" not in seen[0] and "get_weather" in seen[1]  # hidden until kg-tools found it
    assert booked == "booked" and seen[-1] == ["create_calendar_event"]
    assert [name for name, _ in RAN] == ["get_weather", "create_calendar_event"]
