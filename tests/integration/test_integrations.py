"""kg_tools.integrations inside each framework's own agent loop (issue 31): a scripted model asks for tools,
kg-tools (a real API on uvicorn, a real Neo4j) retrieves them, the model calls one and the Python function
really runs. The models are the frameworks' own fakes (LangChain's GenericFakeChatModel, PydanticAI's
FunctionModel)."""

from __future__ import annotations

import asyncio
import json

import anthropic
import httpx2 as httpx
import pytest
from agents import Agent as AgentsSDKAgent
from agents import OpenAIChatCompletionsModel, RunConfig, Runner
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import StructuredTool
from langgraph.prebuilt import create_react_agent
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM
from openai import AsyncOpenAI
from pydantic_ai import Agent
from pydantic_ai.capabilities import ToolSearch
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.toolsets import FunctionToolset

from kg_tools.api.app import create_app
from kg_tools.client import AsyncKgToolsClient, KgToolsClient
from kg_tools.integrations.calls import FunctionCalls, catalog_from_functions
from kg_tools.integrations.claude import ClaudeToolSearch
from kg_tools.integrations.langgraph import (
    KgToolsRetriever,
    retrieve_tools_function,
    retrieved_tools_model,
    structured_tools,
)
from kg_tools.integrations.llama_index import KgToolsObjectRetriever
from kg_tools.integrations.openai_agents import FunctionToolSearch
from kg_tools.integrations.openai_responses import ResponsesToolSearch, deferred_tools
from kg_tools.integrations.pydantic_ai import KgToolsToolset, kg_tools_search
from kg_tools.retrieval.request import ToolHit
from tests.support.fake_openai import FakeOpenAI
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


def test_openai_agents_function_tool_search_in_the_runner(api):

    seen: list[list[str]] = []

    def search_then_call(request: dict) -> object:
        seen.append(sorted(t["function"]["name"] for t in request.get("tools", [])))
        results = [m["content"] for m in request["messages"] if m["role"] == "tool"]
        if not results:
            return {"tool_calls": [{"name": "search_tools", "arguments": {"query": "weather forecast for a city"}}]}
        if len(results) == 1:
            return {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Lima"}}]}
        return f"done: {results[-1]}"

    async def main(base_url: str):
        async with AsyncKgToolsClient(api) as kg:
            search = FunctionToolSearch(kg, FUNCTIONS, k=1, K=1)
            model = OpenAIChatCompletionsModel("test-model", AsyncOpenAI(base_url=base_url, api_key="test"))
            agent = AgentsSDKAgent("assistant", model=model, tools=search.tools())
            run = await Runner.run(agent, "What's the weather in Lima?", run_config=RunConfig(tracing_disabled=True))
            return run.final_output, json.loads(seen_search(fake.requests))

    def seen_search(requests: list[dict]) -> str:  # what search_tools answered (the first tool message)
        return next(m["content"] for m in requests[1]["messages"] if m["role"] == "tool")

    with FakeOpenAI() as fake:
        fake.script(search_then_call)
        output, answered = asyncio.run(main(fake.base_url))
    assert output == "done: sunny in Lima, 21 C"
    assert seen[0] == ["search_tools"]  # nothing but the search before kg-tools found a tool
    assert seen[1] == seen[2] == ["get_weather", "search_tools"]
    assert [t["name"] for t in answered["tools"]] == ["get_weather"]
    assert RAN == [("get_weather", {"city": "Lima"})]


def _claude_message(body: dict, content: list[dict], stop: str) -> dict:
    usage = {"input_tokens": 10, "output_tokens": 5}
    return {"id": "msg_test", "type": "message", "role": "assistant", "model": body["model"], "content": content,
            "stop_reason": stop, "stop_sequence": None, "usage": usage}  # fmt: skip


def test_claude_tool_search_answers_with_tool_references_in_the_tool_runner(api):

    requests: list[dict] = []

    def messages_api(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        requests.append(body)
        results = [
            b
            for m in body["messages"]
            if m["role"] == "user" and isinstance(m["content"], list)
            for b in m["content"]
            if b.get("type") == "tool_result"
        ]
        if not results:
            use = {"type": "tool_use", "id": "tu_1", "name": "search_tools", "input": {"query": "mail a message"}}
            return httpx.Response(200, json=_claude_message(body, [use], "tool_use"))
        if results[-1]["tool_use_id"] == "tu_1":  # the runner sends only the newest turn
            arguments = {"to": "bob@example.com", "subject": "hi", "body": "hello"}
            use = {"type": "tool_use", "id": "tu_2", "name": "send_email", "input": arguments}
            return httpx.Response(200, json=_claude_message(body, [use], "tool_use"))
        return httpx.Response(200, json=_claude_message(body, [{"type": "text", "text": "mailed"}], "end_turn"))

    http = httpx.Client(transport=httpx.MockTransport(messages_api))
    claude = anthropic.Anthropic(api_key="test", base_url="http://claude.test", http_client=http)
    with KgToolsClient(api) as kg:
        search = ClaudeToolSearch(kg, FUNCTIONS, k=1, K=1)
        runner = claude.beta.messages.tool_runner(
            model="claude-test",
            max_tokens=1024,
            messages=[{"role": "user", "content": "Mail bob@example.com to say hello"}],
            tools=search.runnable_tools(),
            max_iterations=4,
        )
        final = runner.until_done()

        # the same answer in a plain loop
        block = {"type": "tool_use", "id": "tu_9", "name": "search_tools", "input": {"query": "mail a message"}}
        plain = asyncio.run(search.tool_result(block))
        definitions = search.tool_definitions()

    assert final.content[0].text == "mailed"
    tools = {t["name"]: t for t in requests[0]["tools"]}
    assert "defer_loading" not in tools["search_tools"]
    assert all(tools[f.__name__]["defer_loading"] is True for f in FUNCTIONS)
    search_result = requests[1]["messages"][-1]["content"][0]  # the answer to the search
    assert search_result["tool_use_id"] == "tu_1"
    assert search_result["content"] == [{"type": "tool_reference", "tool_name": "send_email"}]
    assert RAN == [("send_email", {"to": "bob@example.com"})]
    assert plain == {"type": "tool_result", "tool_use_id": "tu_9", "content": search_result["content"]}
    assert [t["name"] for t in definitions] == ["search_tools", *(f.__name__ for f in FUNCTIONS)]
    assert definitions[1]["defer_loading"] is True and definitions[1]["input_schema"]["required"] == ["city"]


def test_openai_responses_client_tool_search(api):

    requests: list[dict] = []

    def responses_api(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        requests.append(body)
        kinds = [item.get("type") for item in body["input"] if isinstance(item, dict)]
        if "tool_search_output" not in kinds:
            out = {"type": "tool_search_call", "id": "ts_1", "call_id": "call_ts_1", "execution": "client",
                   "status": "completed", "arguments": {"query": "convert money between currencies"}}  # fmt: skip
        elif "function_call_output" not in kinds:
            arguments = json.dumps({"amount": 10, "source": "USD", "target": "EUR"})
            out = {"type": "function_call", "id": "fc_1", "call_id": "call_f_1", "name": "convert_currency",
                   "arguments": arguments, "status": "completed"}  # fmt: skip
        else:
            text = {"type": "output_text", "text": "converted", "annotations": []}
            out = {"type": "message", "id": "m_1", "role": "assistant", "status": "completed", "content": [text]}
        return httpx.Response(200, json={"id": f"resp_{len(requests)}", "object": "response", "created_at": 0,
                                         "model": body["model"], "status": "completed", "output": [out],
                                         "parallel_tool_calls": True, "tool_choice": "auto", "tools": body["tools"]})  # fmt: skip

    async def main():
        http = httpx.AsyncClient(transport=httpx.MockTransport(responses_api))
        openai = AsyncOpenAI(api_key="test", base_url="http://openai.test/v1", http_client=http)
        async with AsyncKgToolsClient(api) as kg:
            search = ResponsesToolSearch(kg, FunctionCalls(FUNCTIONS), k=1, K=1)
            items: list = [{"role": "user", "content": "Convert 10 USD to EUR"}]
            response = await openai.responses.create(model="gpt-test", input=items, tools=[search.tool()])
            while answers := await search.answer(response.output):
                items += [*response.output, *answers]
                response = await openai.responses.create(model="gpt-test", input=items, tools=[search.tool()])
            return response.output_text

    assert asyncio.run(main()) == "converted"
    assert requests[0]["tools"] == [requests[0]["tools"][0]] and requests[0]["tools"][0]["type"] == "tool_search"
    searched = next(i for i in requests[1]["input"] if i.get("type") == "tool_search_output")
    assert searched["call_id"] == "call_ts_1" and searched["execution"] == "client"
    assert [t["name"] for t in searched["tools"]] == ["convert_currency"]  # a plain function: no namespace
    called = next(i for i in requests[2]["input"] if i.get("type") == "function_call_output")
    assert called["call_id"] == "call_f_1" and float(called["output"]) == pytest.approx(11.0)
    assert RAN == [("convert_currency", {"amount": 10})]


def test_responses_namespaces_group_gateway_tools():

    def hit(name: str) -> ToolHit:
        function = {"name": name, "description": name, "parameters": {"type": "object", "properties": {}}}
        return ToolHit(name=name, kind="regular", role="seed", function={"type": "function", "function": function})

    tools = deferred_tools(
        [hit("time__get_current_time"), hit("local_fn"), hit("time__convert_time"), hit("filesystem__read_text_file")],
        descriptions={"time": "Current time and time-zone conversion."},
    )
    assert [t.get("name") for t in tools] == ["time", "local_fn", "filesystem"]
    assert tools[0] == {
        "type": "namespace",
        "name": "time",
        "description": "Current time and time-zone conversion.",
        "tools": [
            {"type": "function", "defer_loading": True, **hit("time__get_current_time").function["function"]},
            {"type": "function", "defer_loading": True, **hit("time__convert_time").function["function"]},
        ],
    }
    assert tools[1]["defer_loading"] is True and tools[2]["description"] == "Tools of the filesystem server."


def test_llama_index_function_agent_with_kg_tools_object_retriever(api):

    seen: list[list[str]] = []

    def respond(messages, **kwargs) -> ChatMessage:
        seen.append(sorted(t.metadata.name for t in kwargs.get("tools") or []))
        if any(m.role == MessageRole.TOOL for m in messages):
            return ChatMessage(role="assistant", content=f"done: {messages[-1].content}")
        arguments = {"title": "dentist", "start": "2026-12-01T09:00"}
        call = ToolCallBlock(tool_call_id="c1", tool_name="create_calendar_event", tool_kwargs=arguments)
        return ChatMessage(role="assistant", blocks=[call])

    async def main():
        async with AsyncKgToolsClient(api) as kg:
            retriever = KgToolsObjectRetriever(kg, FunctionCalls(FUNCTIONS), k=1, K=1)
            agent = FunctionAgent(llm=MockFunctionCallingLLM(response_generator=respond), tool_retriever=retriever)
            result = await agent.run("Put a dentist appointment in my calendar for Monday 9am")
            tools = await retriever.aretrieve("weather in Paris")
            return str(result), tools

    output, tools = asyncio.run(main())
    assert output == "done: created"
    assert seen[0] == ["create_calendar_event"]  # the LLM saw only what kg-tools retrieved
    assert RAN == [("create_calendar_event", {"title": "dentist"})]
    assert [t.metadata.name for t in tools] == ["get_weather"]
    assert tools[0].metadata.get_parameters_dict()["required"] == ["city"]
    with KgToolsClient(api) as kg:
        tool = KgToolsObjectRetriever(kg, FunctionCalls(FUNCTIONS), k=1, K=1).retrieve("send an email to bob")[0]
        assert tool.call(to="bob@example.com", subject="s", body="b").raw_output == "sent"
