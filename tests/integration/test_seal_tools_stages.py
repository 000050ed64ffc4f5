"""Seal-Tools-style multi-step requests against the real Neo4j: the decompose stage on a hand-made catalog, and `kg-tools eval seal-tools --methods/--alpha/--stages` end to end."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from benchmarks.commands.eval import eval_group, register
from benchmarks.eval import paper_methods
from benchmarks.eval.metrics import recall
from benchmarks.merge_eval import method_request
from kg_tools.cli import cli
from kg_tools.commands.context import AppContext
from kg_tools.ingest import load_catalog
from kg_tools.loaders import seal_tools
from kg_tools.retrieval import Pipeline, RetrievalRequest

# -- the splitter ----------------------------------------------------------------------------


def _tool(name, description, **params):
    return {
        "api_name": name,
        "api_description": description,
        "field": "test",
        "parameters": {p: {"type": "string", "description": d} for p, d in params.items()},
        "required": list(params)[:1],
        "responses": {},
    }


TOOLS = [
    _tool("translatePoemToFrench", "Translate a poem into French.", poem="The poem to translate"),
    _tool("translatePoemToSpanish", "Translate a poem into Spanish.", poem="The poem to translate"),
    _tool("translatePoemToGerman", "Translate a poem into German.", poem="The poem to translate"),
    _tool("getPoemText", "Retrieve the full text of a poem.", title="The poem title"),
    _tool("getPoetryClass", "Find a poetry class for a student.", city="Where"),
    _tool(
        "convertCurrency",
        "Convert an amount of money from one currency to another.",
        amount="How much money",
        target="Target currency code",
    ),
    _tool("getWeather", "Get the weather forecast for a city.", city="The city"),
    _tool("bookHotel", "Book a hotel room in a city.", city="The city", nights="Number of nights"),
    _tool("playSong", "Play a song by name.", song_name="The song"),
    _tool("sendEmail", "Send an email message to a recipient.", to="Address", body="Text"),
    _tool("getStockPrice", "Get the current price of a stock.", symbol="Ticker symbol"),
    _tool("createPlaylist", "Create a music playlist.", playlist_name="Name of the playlist"),
]
QUERIES = [
    {
        "id": "q0",
        "query": "Please translate the poem 'Ode to a Nightingale' into French for my poetry class. "
        "Then convert 100 dollars to euros.",
        "calling": [
            {"api": "translatePoemToFrench", "parameters": {"poem": "Ode"}},
            {"api": "convertCurrency", "parameters": {"amount": "100", "target": "EUR"}},
        ],
    },
    {
        "id": "q1",
        "query": "What is the weather in Oslo? Also play the song 'Hey Jude'.",
        "calling": [
            {"api": "getWeather", "parameters": {"city": "Oslo"}},
            {"api": "playSong", "parameters": {"song_name": "Hey Jude"}},
        ],
    },
    {
        "id": "q2",
        "query": "Create a playlist called 'Run' and send an email to Ann about it.",
        "calling": [
            {"api": "createPlaylist", "parameters": {"playlist_name": "Run"}},
            {"api": "sendEmail", "parameters": {"to": "ann@example.com"}},
        ],
    },
]


@pytest.fixture
def mini_seal(empty_graph, embedder, tmp_path):
    directory = tmp_path / "seal-tools"
    directory.mkdir()
    (directory / "tool.jsonl").write_text("\n".join(json.dumps(t) for t in TOOLS) + "\n")
    (directory / "test_out_domain.jsonl").write_text("\n".join(json.dumps(q) for q in QUERIES) + "\n")
    source = seal_tools.load(directory)
    load_catalog(empty_graph, embedder, source.tools, source.catalog, log=lambda *_: None)
    return directory, source


@pytest.mark.integration
def test_decompose_brings_each_sub_request_top_tool_into_the_seeds(mini_seal, embedder, settings, graph):
    pipeline = Pipeline(graph, embedder, settings)
    query = QUERIES[0]["query"]
    plain = pipeline.retrieve(RetrievalRequest(query=query, mode="fulltext", k=2, K=2, depth=0)).names
    assert "convertCurrency" not in plain  # the poem sentence dominates the whole request
    response = pipeline.retrieve(
        RetrievalRequest(query=query, mode="fulltext", k=2, K=2, depth=0, stages=["decompose"])
    )
    assert response.names == ["translatePoemToFrench", "convertCurrency"]
    info = next(s for s in response.stages if s.name == "decompose")
    assert info.fallback and "2 sub-request(s)" in info.detail


def _expected(pipeline, source, method, alpha, stages, k):
    """Mean Recall@k computed here, request by request, independently of the command."""
    fields = method_request(method, alpha, stages)
    total = 0.0
    for q in source.instances:
        names = pipeline.retrieve(
            RetrievalRequest(query=q["query"], k=10, K=10, depth=0, catalog=source.catalog, **fields)
        ).names
        total += recall(names, set(q["gold"]), k)
    return total / len(source.instances)


@pytest.mark.integration
def test_eval_seal_tools_methods_alpha_stages(mini_seal, embedder, settings, graph, tmp_path):
    register(cli)  # adds the seal-tools subcommand to the eval group
    directory, source = mini_seal
    app = AppContext(settings)
    app._graph, app._embedder = graph, embedder
    out = tmp_path / "seal.json"
    result = CliRunner().invoke(
        eval_group,
        [
            "seal-tools",
            str(directory),
            "--methods",
            "lexical,hybrid,rrf",
            "--alpha",
            "0.3",
            "--stages",
            "decompose",
            "--json",
            str(out),
        ],
        obj=app,
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(out.read_text())
    rows = payload["rows"]
    assert [r["method"] for r in rows] == ["lexical", "hybrid", "rrf"]
    assert all(r["stages"] == ["decompose"] and r["merged"] is False for r in rows)
    assert rows[1]["alpha"] == 0.3 and "alpha" not in rows[0] and "alpha" not in rows[2]
    assert payload["config"] == {"methods": ["lexical", "hybrid", "rrf"], "alpha": 0.3, "stages": ["decompose"]}
    assert "decompose" in result.output and "hybrid a=0.3" in result.output
    pipeline = Pipeline(graph, embedder, settings)
    for row in rows:
        for k in (5, 10):
            assert row[f"Recall@{k}"] == pytest.approx(
                _expected(pipeline, source, row["method"], 0.3, ["decompose"], k), abs=1e-4
            )

    bad = CliRunner().invoke(eval_group, ["seal-tools", str(directory), "--methods", "bm25"], obj=app)
    assert bad.exit_code != 0 and "unknown method" in bad.output
    bad = CliRunner().invoke(eval_group, ["seal-tools", str(directory), "--stages", "nope"], obj=app)
    assert bad.exit_code != 0 and "unknown stage" in bad.output


@pytest.mark.integration
def test_eval_seal_tools_runs_the_papers_retrievers(mini_seal, embedder, settings, graph, tmp_path):
    """`toolscope` and `rps` on Seal-Tools: each sub-query its own list (paper_methods), stages not applied."""

    register(cli)
    directory, source = mini_seal
    app = AppContext(settings)
    app._graph, app._embedder = graph, embedder
    out = tmp_path / "seal.json"
    args = ["seal-tools", str(directory), "--methods", "toolscope,rps", "--stages", "decompose", "--json", str(out)]
    result = CliRunner().invoke(eval_group, args, obj=app)
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text())["rows"]
    assert [r["method"] for r in rows] == ["toolscope", "rps"]
    assert rows[0]["alpha"] == 1.0 and all(r["stages"] == [] for r in rows)
    pipeline = Pipeline(graph, embedder, settings)
    for row, retrieve in zip(rows, (paper_methods.per_subquery_toolscope, paper_methods.per_subtask_union)):
        fields = method_request(row["method"])
        names = [
            retrieve(
                pipeline, RetrievalRequest(query=q["query"], k=10, K=10, depth=0, catalog=source.catalog, **fields)
            ).names
            for q in source.instances
        ]
        for k in (5, 10):
            expected = sum(recall(n, set(q["gold"]), k) for n, q in zip(names, source.instances)) / len(names)
            assert row[f"Recall@{k}"] == pytest.approx(expected, abs=1e-4)
        # each request's steps lead: the first two names are the two sub-queries' best tools
        assert all(len(set(n[:2])) == 2 for n in names)
