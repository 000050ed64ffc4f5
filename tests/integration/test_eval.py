"""Eval runner and CLI against a real Neo4j, on a tiny hand-made benchmark with known metric values."""

import json

import pytest
from click.testing import CliRunner

from benchmarks.commands.eval import eval_group
from benchmarks.eval.datasets import EvalInstance, toollinkos
from benchmarks.eval.runner import Method, catalog_status, ensure_catalog, error_analysis, run_method
from kg_tools.commands.context import AppContext
from kg_tools.retrieval.pipeline import Pipeline


def _dep(name, dtype="TOOL_DIRECTLY_DEPENDS_ON", parameter=None):
    return {"name": name, "dependence_type": dtype, "parameter_name": parameter, "reason": f"needs {name}"}


def _tool(name, description, func_type="regular", depends_on=(), parameters=()):
    return {
        "name": name,
        "description": description,
        "func_type": func_type,
        "depends_on": list(depends_on),
        "parameters": [{"name": p, "type": "string", "description": p, "required": True} for p in parameters],
    }


CORE = [
    _tool("get_wifi_status", "Tells whether the device is connected to wifi.", "core"),
    _tool("get_current_date", "Returns today's calendar date.", "core"),
]
REGULAR = [
    # listing order of depends_on = depth-first order of the expansion
    _tool(
        "convert_currency",
        "Converts an amount of money from one currency to another, e.g. dollars to euros.",
        depends_on=[_dep("get_wifi_status"), _dep("get_current_date", "PARAMETER_INDIRECTLY_DEPENDS_ON", "date")],
        parameters=["amount", "date"],
    ),
    _tool("water_the_garden_plants", "Starts the garden sprinkler to water the plants and flowers."),
    _tool("translate_poem_to_french", "Translates a poem into the French language."),
]
INSTANCES = [
    # 1: gold = the whole closure -> GRTF k=1 returns it in order: AP 1, Recall 1
    {
        "user_query": "Convert an amount of money from dollars to euros.",
        "main_golden_function_name": "convert_currency",
        "golden_function_names": ["convert_currency", "get_wifi_status", "get_current_date"],
    },
    # 2: gold holds a tool the expansion cannot reach -> GRTF [sprinkler]: AP = 1/2, Recall 1/2
    {
        "user_query": "Start the garden sprinkler to water my plants and flowers.",
        "main_golden_function_name": "water_the_garden_plants",
        "golden_function_names": ["water_the_garden_plants", "get_current_date"],
    },
]


@pytest.fixture
def bench_dir(tmp_path):
    (tmp_path / "core_tools.json").write_text(json.dumps(CORE))
    (tmp_path / "regular_tools.json").write_text(json.dumps(REGULAR))
    (tmp_path / "instances.json").write_text(json.dumps(INSTANCES))
    return tmp_path


@pytest.fixture
def bench(bench_dir):
    return toollinkos(bench_dir)


@pytest.mark.integration
def test_ensure_catalog_loads_once(empty_graph, embedder, settings, bench):
    logs = []
    assert catalog_status(empty_graph, embedder, bench) == "the graph is empty"
    assert ensure_catalog(empty_graph, embedder, bench, settings, logs.append) is True
    assert "replace_all=True" in logs[-1]
    assert catalog_status(empty_graph, embedder, bench) is None
    assert ensure_catalog(empty_graph, embedder, bench, settings, logs.append) is False


@pytest.mark.integration
def test_runner_known_values(empty_graph, embedder, settings, bench):
    ensure_catalog(empty_graph, embedder, bench, settings, lambda *_: None)
    pipeline = Pipeline(empty_graph, embedder, settings)
    grtf = Method(
        "grtf1", "k=1 GRTF", {"mode": "vector", "k": 1, "K": 3, "depth": 5}, True
    )  # K=3: no fill for the first
    result = run_method(pipeline, grtf, bench.instances, bench.name)
    assert [r.names for r in result.results] == [
        ["convert_currency", "get_wifi_status", "get_current_date"],
        ["water_the_garden_plants", "translate_poem_to_french", "convert_currency"],  # K filled by the next seeds
    ]
    row = result.row()
    assert row["mAP@10"] == pytest.approx((1.0 + 0.5) / 2)
    assert row["Recall@10"] == pytest.approx((1.0 + 0.5) / 2)
    assert row["queries"] == 2
    analysis = error_analysis(result)
    assert analysis["all_gold_in_top_k"] == 1 and analysis["main_first_dependency_cut"] == 1

    plain = Method("vector1", "top-1, no expansion", {"mode": "vector", "k": 1, "K": 1, "depth": 0}, False)
    result = run_method(pipeline, plain, bench.instances, bench.name)
    assert [r.names for r in result.results] == [["convert_currency"], ["water_the_garden_plants"]]
    assert result.row()["mAP@10"] == pytest.approx((1 / 3 + 1 / 2) / 2, abs=1e-4)  # rows round to 4 places


@pytest.mark.integration
def test_error_analysis_main_missed(empty_graph, embedder, settings, bench):
    ensure_catalog(empty_graph, embedder, bench, settings, lambda *_: None)
    pipeline = Pipeline(empty_graph, embedder, settings)
    wrong = [EvalInstance("Translate this poem into French.", frozenset({"convert_currency"}), "convert_currency")]
    result = run_method(
        pipeline, Method("g", "", {"mode": "vector", "k": 1, "K": 1, "depth": 5}, True), wrong, bench.name
    )
    assert result.results[0].seeds == ["translate_poem_to_french"]
    assert error_analysis(result)["main_not_in_seeds"] == 1


@pytest.mark.integration
def test_cli_json(empty_graph, embedder, settings, bench_dir, tmp_path):
    app = AppContext(settings)
    app._graph, app._embedder = empty_graph, embedder  # the test's graph/embedder (real Neo4j)
    out, png = tmp_path / "out.json", tmp_path / "out.png"
    result = CliRunner().invoke(
        eval_group,
        ["toollinkos", str(bench_dir), "--json", str(out), "--plot", str(png), "--methods", "vector,grtf,grtf_offline"],
        obj=app,
    )
    assert result.exit_code == 0, result.output
    assert "loading toollinkos with replace_all=True" in result.output
    payload = json.loads(out.read_text())
    assert set(payload) == {"dataset", "rows", "paper", "error_analysis", "config"}
    assert payload["dataset"] == "toollinkos"
    assert [r["method"] for r in payload["rows"]] == ["vector", "grtf", "grtf_offline"]
    for row in payload["rows"]:
        for key in ("mAP@10", "Recall@10", "nDCG@10", "mAP@20", "Recall@30", "nDCG@30"):
            assert 0.0 <= row[key] <= 1.0
    vector, grtf = payload["rows"][0], payload["rows"][1]
    assert vector["Recall@30"] == 1.0  # 5 tools, K = 30: the plain top-K holds everything
    assert grtf["mAP@10"] >= 0.75 - 1e-4  # instance 1: AP 1 (closure in order); instance 2: main first, AP >= 1/2
    assert payload["paper"]["grtf_paper"]["mAP@10"] == 0.856
    assert set(payload["error_analysis"]) == {"grtf", "grtf_offline"}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    bad = CliRunner().invoke(eval_group, ["toollinkos", str(bench_dir), "--methods", "nope"], obj=app)
    assert bad.exit_code != 0 and "unknown method" in str(bad.exception or bad.output)
