"""`kg-tools bench compare` on a tiny catalog against a real Neo4j: it runs and reports the three retrievers."""

import json

import click
import pytest
from click.testing import CliRunner

from benchmarks.bench import compare
from benchmarks.commands.bench import register
from benchmarks.eval.datasets import toollinkos
from benchmarks.eval.runner import ensure_catalog
from kg_tools.commands.context import AppContext
from kg_tools.retrieval.pipeline import Pipeline
from tests.integration.test_eval import CORE, INSTANCES, REGULAR

pytestmark = pytest.mark.integration


def test_compare_reports_every_retriever(empty_graph, embedder, settings, tmp_path):
    for name, data in (("core_tools", CORE), ("regular_tools", REGULAR), ("instances", INSTANCES)):
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    app = AppContext(settings)
    app._graph, app._embedder = empty_graph, embedder  # the test's graph/embedder (real Neo4j)

    cli = click.Group()
    register(cli)
    out, png = tmp_path / "compare.json", tmp_path / "compare.png"
    args = ["bench", "compare", str(tmp_path), "--n", "2", "--json", str(out), "--plot", str(png)]
    result = CliRunner().invoke(cli, args, obj=app)
    assert result.exit_code == 0, result.output
    assert "kg-tools" in result.output and "neo4j-graphrag" in result.output
    payload = json.loads(out.read_text())
    assert set(payload["rows"]) == {"kg-tools", "neo4j-graphrag", "neo4j-graphrag-hybrid"}
    assert payload["requests"] == 2
    for row in payload["rows"].values():
        assert set(row) == {"p50_ms", "p95_ms", "cpu_ms_per_request", "mAP@10"}
        assert 0.0 <= row["mAP@10"] <= 1.0
    # query 1's gold is convert_currency's whole closure, which the peers reach too
    assert payload["rows"]["neo4j-graphrag"]["mAP@10"] > 0.5
    assert payload["rows"]["neo4j-graphrag-hybrid"]["mAP@10"] > 0.5
    assert payload["ratio_p50"] == payload["ratios"]["neo4j-graphrag"]["p50"] > 0
    assert set(payload["ratios"]) == {"neo4j-graphrag", "neo4j-graphrag-hybrid"}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_compare_under_load(empty_graph, embedder, settings, tmp_path):
    for name, data in (("core_tools", CORE), ("regular_tools", REGULAR), ("instances", INSTANCES)):
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    dataset = toollinkos(tmp_path)
    ensure_catalog(empty_graph, embedder, dataset, settings, lambda *_: None)
    result = compare.run(Pipeline(empty_graph, embedder, settings), empty_graph, embedder, dataset.instances, 2, True)
    assert result["background_load"] is True and result["requests"] == 2
    assert "kg-tools / neo4j-graphrag-hybrid" in compare.table(result)
    assert result["goal_peer"] == "neo4j-graphrag-hybrid"
