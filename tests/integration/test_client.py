"""kg_tools.client against a real `kg-tools serve` app on real uvicorn and a real Neo4j: every call, the
documented errors as KgToolsError classes, retries on 503, the async twin; the tool shapes for agent APIs."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from kg_tools.api.app import create_app
from kg_tools.client import (
    ApiUnavailableError,
    AsyncKgToolsClient,
    AuthenticationError,
    InvalidRequestError,
    KgToolsClient,
    anthropic_tools,
    mcp_tools,
    openai_tools,
    responses_tools,
)
from kg_tools.errors import (
    CatalogError,
    CatalogNotFoundError,
    DatabaseUnavailableError,
    KgToolsError,
    ToolNotFoundError,
)
from kg_tools.processes import free_port
from tests.support.http_server import serve_in_thread

# Some of these tests need no Neo4j; the file runs with the integration tests (tests/conftest.py places files by marker).
pytestmark = pytest.mark.integration

CATALOG = [
    {
        "name": "get_weather",
        "description": "Current weather for a city",
        "parameters": [{"name": "city", "type": "string", "description": "city name", "required": True}],
    },
    {"name": "send_email", "description": "Send an e-mail to an address", "parameters": []},
    {"name": "odd/name with space", "description": "A tool whose name needs escaping in a path"},
]


class Counting(httpx.HTTPTransport):
    """A real transport that counts the requests it sends (the retries)."""

    def __init__(self):
        super().__init__()
        self.sent = 0

    def handle_request(self, request):
        self.sent += 1
        return super().handle_request(request)


@pytest.fixture(scope="module")
def api(settings, graph, embedder):
    keyed = settings.model_copy(update={"api_key": "s3cret-key"})
    with serve_in_thread(create_app(keyed, graph=graph, embedder=embedder)) as url:
        yield url


@pytest.mark.integration
def test_every_call_round_trips(api, empty_graph):
    with KgToolsClient(api, api_key="s3cret-key") as kg:
        loaded = kg.load("weather", CATALOG)
        assert (loaded.catalog, loaded.tools, loaded.format) == ("weather", 3, "json")
        assert [c.name for c in kg.catalogs().catalogs] == ["weather"]
        page = kg.tools(limit=2)
        assert page.total == 3 and len(page.tools) == 2
        assert kg.get_tool("odd/name with space").name == "odd/name with space"
        hits = kg.retrieve("what is the weather in Paris", k=1, K=2)
        assert hits.tools[0].name == "get_weather"
        assert [s.name for s in hits.stages]
        kg.delete_catalog("weather")
        assert kg.catalogs().catalogs == []


@pytest.mark.integration
def test_documented_errors_raise_the_hierarchy(api, empty_graph):
    with KgToolsClient(api, api_key="s3cret-key") as kg:
        with pytest.raises(ToolNotFoundError) as missing:
            kg.get_tool("no_such_tool")
        assert (missing.value.name, missing.value.status, missing.value.code) == ("no_such_tool", 404, "tool_not_found")
        with pytest.raises(InvalidRequestError) as bad:
            kg.retrieve("weather", k=0)
        assert bad.value.status == 422 and bad.value.body["errors"][0]["field"] == "k"
        with pytest.raises(CatalogError) as invalid:
            kg.load("broken", [{"name": "", "description": "nameless"}])
        assert invalid.value.status == 422 and invalid.value.problems
        with pytest.raises(CatalogNotFoundError):
            kg.delete_catalog("never_loaded")
    with KgToolsClient(api) as anonymous:
        with pytest.raises(AuthenticationError) as unauthorized:
            anonymous.load("weather", CATALOG)
        assert unauthorized.value.status == 401
    with KgToolsClient(api, api_key="wrong-key") as wrong, pytest.raises(AuthenticationError) as forbidden:
        wrong.load("weather", CATALOG)
    assert forbidden.value.status == 403
    assert isinstance(forbidden.value, KgToolsError)


@pytest.mark.integration
def test_a_503_is_retried_then_raised(settings):
    """Neo4j is down (nothing listens on its port): the API answers 503 database_unavailable; the client
    tries 1 + retries times and raises DatabaseUnavailableError."""
    down = settings.model_copy(update={"neo4j_uri": f"bolt://127.0.0.1:{free_port()}"})
    with serve_in_thread(create_app(down)) as url:
        transport = Counting()
        with KgToolsClient(url, retries=2, transport=transport) as kg, pytest.raises(DatabaseUnavailableError) as e:
            kg.catalogs()
        assert e.value.status == 503
        assert transport.sent == 3


def test_a_refused_connection_is_retried_then_raised():
    with KgToolsClient(f"http://127.0.0.1:{free_port()}", retries=1) as kg, pytest.raises(ApiUnavailableError):
        kg.catalogs()


def test_a_503_then_success_returns_the_answer():
    answers = iter(
        [
            httpx.Response(
                503, json={"error": "not_ready", "detail": "indexes populating"}, headers={"Retry-After": "0"}
            ),
            httpx.Response(200, json={"catalogs": []}),
        ]
    )
    with KgToolsClient(transport=httpx.MockTransport(lambda request: next(answers))) as kg:
        assert kg.catalogs().catalogs == []


@pytest.mark.integration
def test_the_async_client(api, empty_graph):
    async def main():
        async with AsyncKgToolsClient(api, api_key="s3cret-key") as kg:
            await kg.load("weather", CATALOG)
            hits = await kg.retrieve("weather in Paris", k=1, K=1)
            with pytest.raises(ToolNotFoundError):
                await kg.get_tool("missing")
            detail = await kg.get_tool("send_email")
            await kg.delete_catalog("weather")
            return hits, detail

    hits, detail = asyncio.run(main())
    assert hits.names == ["get_weather"] and detail.name == "send_email"


@pytest.mark.integration
def test_tool_shapes_for_agent_apis(api, empty_graph):
    with KgToolsClient(api, api_key="s3cret-key") as kg:
        kg.load("weather", CATALOG)
        hits = kg.retrieve("weather in Paris", k=1, K=1).tools
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "city name"}},
        "required": ["city"],
    }
    assert openai_tools(hits) == [
        {
            "type": "function",
            "function": {"name": "get_weather", "description": "Current weather for a city", "parameters": schema},
        }
    ]
    assert responses_tools(hits)[0] == {
        "type": "function",
        "name": "get_weather",
        "description": "Current weather for a city",
        "parameters": schema,
    }
    assert mcp_tools(hits)[0]["inputSchema"] == schema
    assert anthropic_tools(hits)[0] == {
        "name": "get_weather",
        "description": "Current weather for a city",
        "input_schema": schema,
    }
