"""`kg-tools enrich` and the `enriched` stage against the real Neo4j and a scripted OpenAI-compatible server."""

import json
import re

import pytest
from click.testing import CliRunner

from kg_tools.cli import cli
from kg_tools.enrich import enrich_tools, enrichment_counts
from kg_tools.ingest import LoadMode, load_catalog
from kg_tools.llm import LLMClient
from kg_tools.retrieval import Pipeline, RetrievalRequest
from tests.conftest import graph_snapshot
from tests.support.cli_process import neo4j_env
from tests.support.fake_openai import FakeOpenAI
from tests.support.synthetic_catalog import plain_tool

pytestmark = pytest.mark.integration

# Each tool's synthetic questions carry a phrase no tool description contains.
SECRET = {
    "play_song": "my grandmother's lullaby in the attic",
    "get_weather": "umbrella before walking the dog",
    "book_taxi": "ride to the airport at dawn",
    "send_email": "note to my landlord about the heater",
}


CATALOG = [
    plain_tool("play_song", "Play a song by title."),
    plain_tool("get_weather", "Weather forecast for a city."),
    plain_tool("book_taxi", "Book a taxi."),
    plain_tool("send_email", "Send an e-mail message."),
]


def tool_name(req) -> str:
    return re.search(r"^Tool name: (\S+)$", FakeOpenAI.user_prompt(req), flags=re.M).group(1)


def good_answer(req):
    name = tool_name(req)
    return json.dumps(
        {
            "description": f"The {name} tool. It is used when users need it.",
            "questions": [f"I want {SECRET[name]}", f"could you help with {SECRET[name]}", "help"],
            "topics": [name, "testing"],
        }
    )


@pytest.fixture
def small_graph(empty_graph, embedder):
    load_catalog(empty_graph, embedder, CATALOG, "enrich-test", mode=LoadMode.REPLACE, log=lambda *_: None)
    return empty_graph


def questions(graph):
    return graph.read(
        "MATCH (q:Question)-[:ASKS_FOR]->(t:Tool) RETURN t.name AS tool, q.text AS text, q.kind AS kind, "
        "q.model AS model, q.spec_hash AS spec_hash, t.spec_hash AS tool_hash, q.embedding_model AS em, "
        "size(q.embedding) AS dim, q.created IS NOT NULL AS dated ORDER BY tool, kind, text"
    )


def test_enrich_stores_questions_with_provenance_and_is_incremental(small_graph, embedder, llm_settings, fake_llm):
    fake_llm.script(good_answer)
    llm = LLMClient(llm_settings)
    log = []
    result = enrich_tools(small_graph, embedder, llm, n_questions=2, log=log.append)
    assert (result.todo, result.enriched, result.failed) == (4, 4, [])
    assert result.llm_calls == 4 and result.tokens == 4 * 15  # the fake server reports 15 tokens a call
    assert len(log) == 4 and log[0].startswith("[1/4] ")
    rows = questions(small_graph)
    assert len(rows) == 4 * 3 == result.vectors  # 2 questions (capped at N) + 1 expanded description per tool
    assert all(
        r["model"] == "test-model"
        and r["spec_hash"] == r["tool_hash"]
        and r["em"] == embedder.name
        and r["dim"] == embedder.dimension
        and r["dated"]
        for r in rows
    )
    assert {r["text"] for r in rows if r["tool"] == "book_taxi" and r["kind"] == "question"} == {
        f"I want {SECRET['book_taxi']}",
        f"could you help with {SECRET['book_taxi']}",
    }
    assert enrichment_counts(small_graph) == {"tools": 4, "enriched": 4, "vectors": 12}

    # nothing changed -> nothing to do, no LLM call
    again = enrich_tools(small_graph, embedder, llm, n_questions=2, log=lambda *_: None)
    assert again.todo == 0 and len(fake_llm.requests) == 4

    # one spec changes -> only that tool is re-enriched; its old questions are replaced

    changed = [dict(t, description="Book a taxi or a limousine.") if t["name"] == "book_taxi" else t for t in CATALOG]
    load_catalog(small_graph, embedder, changed, "enrich-test", log=lambda *_: None)
    third = enrich_tools(small_graph, embedder, llm, n_questions=2, log=lambda *_: None)
    assert third.todo == 1 and tool_name(fake_llm.requests[-1]) == "book_taxi"
    assert "limousine" in FakeOpenAI.user_prompt(fake_llm.requests[-1])
    assert len(questions(small_graph)) == 12


def test_enrich_failures_are_reported_per_tool(small_graph, embedder, llm_settings, fake_llm):
    bad = {"play_song": {"status": 500}, "get_weather": "{not json", "book_taxi": {"refusal": "no"}}
    fake_llm.script(lambda req: bad.get(tool_name(req)) or good_answer(req))
    result = enrich_tools(
        small_graph, embedder, LLMClient(llm_settings), n_questions=2, concurrency=2, log=lambda *_: None
    )
    assert sorted(result.failed) == ["book_taxi", "get_weather", "play_song"] and result.enriched == 1
    assert {r["tool"] for r in questions(small_graph)} == {"send_email"}
    assert "1/4 tools (3 failed)" in result.summary()


def test_cli_without_llm_does_nothing_and_says_so(small_graph, settings):
    before = graph_snapshot(small_graph)
    result = CliRunner().invoke(cli, ["enrich"], env=neo4j_env(settings, OPENAI_BASE_URL=""))
    assert result.exit_code == 0, result.output
    assert "no LLM configured" in result.output and "nothing enriched" in result.output
    assert graph_snapshot(small_graph) == before


def test_cli_with_llm_prints_progress_and_summary(small_graph, settings, fake_llm, tmp_path):
    fake_llm.script(good_answer)
    env = neo4j_env(
        settings,
        OPENAI_BASE_URL=fake_llm.base_url,
        OPENAI_API_KEY="test",
        KG_TOOLS_LLM_MODEL="test-model",
        KG_TOOLS_LLM_TIMEOUT="2",
    )
    out = tmp_path / "enrich.json"
    result = CliRunner().invoke(cli, ["enrich", "--questions", "2", "--limit", "3", "--json", str(out)], env=env)
    assert result.exit_code == 0, result.output
    assert "[3/3]" in result.output and "enriched 3/3 tools" in result.output
    assert "coverage: 3/4 tools enriched, 9 vectors" in result.output
    summary = json.loads(out.read_text())
    assert summary["llm_calls"] == 3 and summary["tokens"] == 45 and summary["coverage"]["vectors"] == 9


def test_enriched_stage_finds_a_tool_through_its_questions(small_graph, embedder, llm_settings, fake_llm):
    # The query is send_email's secret phrase: it matches the tool's synthetic questions, not its
    # description, so plain search over descriptions ranks another tool first.
    query = SECRET["send_email"]
    plain = Pipeline(small_graph, embedder, llm_settings)
    before = plain.retrieve(RetrievalRequest(query=query, stages=["enriched"], k=1, K=1, depth=0))
    info = next(s for s in before.stages if s.name == "enriched")
    assert info.fallback and "run `kg-tools enrich`" in info.detail
    assert before.names != ["send_email"]

    fake_llm.script(good_answer)
    enrich_tools(small_graph, embedder, LLMClient(llm_settings), n_questions=2, log=lambda *_: None)
    baseline = plain.retrieve(RetrievalRequest(query=query, k=1, K=1, depth=0))
    response = plain.retrieve(RetrievalRequest(query=query, stages=["enriched"], k=1, K=1, depth=0))
    assert baseline.names != ["send_email"]  # the descriptions alone still miss it after enriching
    assert response.names == ["send_email"]
    # the score is the max over the tool's vectors: at least its question's similarity to the query
    q_vec = embedder.embed([query], query=True)[0]  # a query (bge: with its prefix)
    best_question = max(
        float(q_vec @ embedder.embed([t])[0])
        for t in [f"I want {SECRET['send_email']}", f"could you help with {SECRET['send_email']}"]
    )
    assert response.tools[0].score >= (1 + best_question) / 2 - 1e-3  # Neo4j cosine score = (1 + cos) / 2
    # ... and above the tool's description-only score on the same scale (search order, no rescoring)
    raw = plain.retrieve(RetrievalRequest(query=query, k=len(CATALOG), depth=0, rerank="none"))
    assert response.tools[0].score > next(t.score for t in raw.tools if t.name == "send_email")
    assert not next(s for s in response.stages if s.name == "enriched").fallback


def test_enriched_stage_needs_vector_mode(small_graph, embedder, settings):
    response = Pipeline(small_graph, embedder, settings).retrieve(
        RetrievalRequest(query="play a song", stages=["enriched"], mode="hybrid")
    )
    info = next(s for s in response.stages if s.name == "enriched")
    assert info.fallback and "vector index" in info.detail


def test_enriching_one_catalog_leaves_the_same_named_tools_of_another_alone(
    empty_graph, embedder, llm_settings, fake_llm
):
    """A tool is (catalog, name): enriching catalog `a` writes a's tools only, never b's tool of that name."""
    load_catalog(empty_graph, embedder, CATALOG, "a", log=lambda *_: None)
    load_catalog(empty_graph, embedder, CATALOG, "b", log=lambda *_: None)
    fake_llm.script(good_answer)
    result = enrich_tools(empty_graph, embedder, LLMClient(llm_settings), n_questions=2, catalog="a", log=print)
    assert (result.todo, result.enriched) == (4, 4)
    rows = empty_graph.read(
        "MATCH (t:Tool) RETURN t.catalog AS catalog, count(t.enriched_description) AS enriched, "
        "sum(COUNT { (:Question)-[:ASKS_FOR]->(t) }) AS questions ORDER BY catalog"
    )
    assert [(r["catalog"], r["enriched"], r["questions"]) for r in rows] == [("a", 4, 12), ("b", 0, 0)]
    assert enrichment_counts(empty_graph, "b") == {"tools": 4, "enriched": 0, "vectors": 0}
