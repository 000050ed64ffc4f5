"""A canary: langgraph-bigtool's own agent loop on the installed LangGraph (docs/agents.md). Every bigtool
release (0.0.3 is the latest) calls `ToolNode.inject_tool_args`, which LangGraph 1.x removed, so the loop
fails at the model's first call of a retrieved tool. Strict: when a bigtool release runs on LangGraph 1.x
this test fails, and `retrieve_tools_function` should then be tested inside bigtool's loop."""

from __future__ import annotations

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import StructuredTool
from langgraph.store.memory import InMemoryStore
from langgraph_bigtool import create_agent


class ScriptedModel(GenericFakeChatModel):
    """LangChain's fake chat model (scripted answers), with the tool binding an agent asks for."""

    def bind_tools(self, tools, **kwargs):  # noqa: ARG002 - the script decides the calls
        return self


def get_weather(city: str) -> str:
    """The weather of a city."""
    return f"sunny in {city}"


def retrieve(query: str) -> list[str]:
    """The ids of the tools for a query."""
    return ["get_weather"]


@pytest.mark.xfail(raises=AttributeError, strict=True, reason="langgraph-bigtool <= 0.0.3 on LangGraph 1.x")
def test_bigtool_runs_its_agent_loop_on_the_installed_langgraph():

    script = [
        AIMessage(content="", tool_calls=[{"name": "retrieve_tools", "args": {"query": "weather"}, "id": "1"}]),
        AIMessage(content="", tool_calls=[{"name": "get_weather", "args": {"city": "Paris"}, "id": "2"}]),
        AIMessage(content="It is sunny in Paris."),
    ]
    registry = {"get_weather": StructuredTool.from_function(get_weather)}
    agent = create_agent(ScriptedModel(messages=iter(script)), registry, retrieve_tools_function=retrieve)
    state = agent.compile(store=InMemoryStore()).invoke({"messages": [("user", "weather in Paris?")]})
    assert state["messages"][-1].content == "It is sunny in Paris."
