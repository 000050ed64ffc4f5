"""`kg-tools retrieve --cypher`: what it prints is what the pipeline ran, and pasted as Neo4j Browser
does it (each `:param name => expr` evaluated as `RETURN expr`, then the query) gives the same tools."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from kg_tools.cli import cli
from kg_tools.retrieval import Pipeline, RetrievalRequest, ordering
from kg_tools.retrieval.recording import cypher_literal, recording
from tests.support import synthetic_catalog as syn
from tests.support.cli_process import neo4j_env
from tests.support.synthetic_catalog import A

pytestmark = pytest.mark.integration


@pytest.fixture
def syn_graph(graph, embedder):
    syn.load(graph, embedder)
    return graph


def _env(settings):
    return neo4j_env(settings)


def _run_like_browser(graph, script: str) -> list[dict]:
    """Browser's way: each `:param` line evaluated by the server, then each query with those params."""
    params, rows, query = {}, [], []
    for line in script.splitlines():
        if line.startswith(":param "):
            name, expr = re.match(r":param (\w+) => (.*)$", line).groups()
            params[name] = graph.read_plain(f"RETURN {expr} AS value")[0]["value"]
        elif not line.startswith("//"):
            query.append(line)
            if line.endswith(";"):
                rows = graph.read_plain("\n".join(query).rstrip(";"), params)
                query = []
    return rows


def test_retrieve_cypher_prints_what_ran_and_it_runs_in_browser_form(syn_graph, settings):
    runner = CliRunner()
    args = ["retrieve", syn.document(A), "--catalog", "syn-seeds", "--k", "2"]
    expected = json.loads(runner.invoke(cli, [*args, "--json"], env=_env(settings)).output)
    names = [t["name"] for t in expected["tools"]]

    elided = runner.invoke(cli, [*args, "--cypher"], env=_env(settings))
    assert elided.exit_code == 0, elided.output
    assert ":param embedding" not in elided.output and "// $embedding: 384 floats" in elided.output
    # the default offline rescoring expands the top SEED_POOL (15) hits in the same round trip, then keeps k = 2
    assert ":param catalogs => ['syn-seeds']" in elided.output and f":param k => {ordering.SEED_POOL}" in elided.output
    # a catalog request: the exact catalog filter (issue 19 item 5) scans the small catalog
    assert "vector.similarity.cosine(hit.embedding, $embedding)" in elided.output
    stages = [f"//   {s['name']}: {s['detail']}" for s in expected["stages"]]  # what ran after the Cypher
    assert stages and elided.output.rstrip().splitlines()[-len(stages) :] == stages

    full = runner.invoke(cli, [*args, "--cypher", "--with-embedding"], env=_env(settings))
    assert full.exit_code == 0, full.output
    rows = _run_like_browser(syn_graph, full.output)
    reached = {name for row in rows for name in [row["name"], *(d["name"] for d in row["deps"])]}
    assert set(names) <= reached  # the default rescoring/reordering happens in Python, on these rows

    # The paper's GRTF (no rescoring, no reordering): the pasted query alone gives the agent's order.
    plain = [*args, "--rerank", "none", "--no-supplied-last"]
    grtf = [t["name"] for t in json.loads(runner.invoke(cli, [*plain, "--json"], env=_env(settings)).output)["tools"]]
    rows = _run_like_browser(
        syn_graph, runner.invoke(cli, [*plain, "--cypher", "--with-embedding"], env=_env(settings)).output
    )
    ran = []
    for row in rows:  # seed, then its dependencies, unique
        for name in [row["name"], *(d["name"] for d in row["deps"])]:
            if name not in ran:
                ran.append(name)
    assert ran[: len(grtf)] == grtf

    as_json = json.loads(runner.invoke(cli, [*args, "--cypher", "--json"], env=_env(settings)).output)
    (only,) = as_json["queries"]
    assert only["params"]["embedding"] == "$embedding" and only["params"]["catalogs"] == ["syn-seeds"]
    assert only["cypher"].strip() in full.output

    bad = runner.invoke(cli, [*args, "--with-embedding"], env=_env(settings))
    assert bad.exit_code == 2 and "--with-embedding needs --cypher" in bad.output


def test_recording_follows_the_stages_that_ran(syn_graph, embedder, settings):
    """With a post-search stage the pipeline runs search and expansion apart: both are recorded."""

    with recording() as executed:
        Pipeline(syn_graph, embedder, settings).retrieve(
            RetrievalRequest(query=syn.document(A), catalog="syn-seeds", k=2, stages=["dedupe"])
        )
    texts = [q.cypher for q in executed]
    assert any("db.index.vector.queryNodes" in t for t in texts)
    assert any("$seeds" in t for t in texts) and len(executed) >= 2
    seeds = next(q.params["seeds"] for q in executed if "seeds" in q.params)
    assert [s["name"] for s in seeds][0] == A
    # Outside a recording nothing is kept.
    Pipeline(syn_graph, embedder, settings).retrieve(RetrievalRequest(query="x", k=1))
    assert len(executed) == len(texts)


def test_cypher_literals_round_trip_through_the_server(graph):
    values = [None, True, 3, -0.25, 1e-05, 'it\'s a \\ "test"\nline', ["a", 1, None], {"name": "x", "odd key": [1.5]}]
    for value in values:
        assert graph.read_plain(f"RETURN {cypher_literal(value)} AS v")[0]["v"] == value
