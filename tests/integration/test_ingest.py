"""Loading catalogs into a real Neo4j: counts, index state, idempotence, and atomic failures."""

import json
from collections import Counter

import pytest

import kg_tools.ingest as ingest
from kg_tools.embeddings import Embedder
from kg_tools.errors import CatalogError, SchemaMismatchError
from kg_tools.ingest import LoadMode, load_catalog, reembed_all
from kg_tools.loaders import json_catalog, toollinkos, toolsandbox
from kg_tools.readiness import readiness
from kg_tools.retrieval.pipeline import Pipeline
from kg_tools.retrieval.request import RetrievalRequest
from kg_tools.schema import VECTOR_INDEX, apply_schema, drop_vector_indexes, vector_index_dimensions
from kg_tools.stats import graph_stats
from kg_tools.tool_spec import normalise_dependency_type
from tests.conftest import graph_snapshot
from tests.support.tiny_models import tiny_sentence_transformer

pytestmark = pytest.mark.integration


def expected_type_counts(raw_tools):
    """Re-derived from the files: every depends_on entry, its type normalised."""
    return Counter(normalise_dependency_type(d["dependence_type"]).value for t in raw_tools for d in t["depends_on"])


def test_toollinkos_loads_exactly(toollinkos_graph, datasets):
    source = toollinkos.load(datasets / "toollinkos")
    st = graph_stats(toollinkos_graph)
    assert st["labels"]["Tool"] == 573 == len(source.tools)
    assert st["labels"]["Core"] == 50 and st["labels"]["Regular"] == 523
    expected = expected_type_counts(source.tools)
    assert sum(expected.values()) == 1496
    assert {k: st["relationships"].get(k, 0) for k in expected} == dict(expected)
    # the README's counts plus the 2 normalised PARAMETER_DEPENDS_ON edges
    assert expected["TOOL_DIRECTLY_DEPENDS_ON"] == 676 and expected["TOOL_INDIRECTLY_DEPENDS_ON"] == 175
    assert expected["PARAMETER_INDIRECTLY_DEPENDS_ON"] == 239 and expected["PARAMETER_DIRECTLY_DEPENDS_ON"] == 404 + 2
    states = {i["name"]: i["state"] for i in st["indexes"]}
    assert states[VECTOR_INDEX] == "ONLINE" and states["tool_text"] == "ONLINE"


def test_every_tool_is_core_xor_regular_and_keeps_its_json(toollinkos_graph, datasets):
    bad = toollinkos_graph.read("MATCH (t:Tool) WHERE (t:Core) = (t:Regular) RETURN count(t) AS n")[0]["n"]
    assert bad == 0
    original = next(t for t in toollinkos.load(datasets / "toollinkos").tools if t["name"] == "get_current_time")
    stored = toollinkos_graph.read("MATCH (t:Tool {name: $n}) RETURN t.spec AS spec", n="get_current_time")
    assert json.loads(stored[0]["spec"]) == original


def test_own_description_finds_tool_first(toollinkos_graph, embedder, datasets):
    tools = toollinkos.load(datasets / "toollinkos").tools
    for t in tools[::57]:  # a spread of tools, core and regular
        rec = toollinkos_graph.read(
            "CALL db.index.vector.queryNodes($index, 50, $v) YIELD node RETURN node.name AS name",
            index=VECTOR_INDEX,
            v=embedder.embed_query(t["description"]),
        )
        assert rec[0]["name"] == t["name"], t["description"]


def test_loading_twice_changes_nothing(toollinkos_graph, embedder, datasets):
    before = graph_snapshot(toollinkos_graph)
    source = toollinkos.load(datasets / "toollinkos")
    result = load_catalog(toollinkos_graph, embedder, source.tools, source.catalog, log=lambda *_: None)
    assert result.embedded == 0  # unchanged specs are not re-embedded
    assert graph_snapshot(toollinkos_graph) == before


def test_toolsandbox_split_files_and_tools_json_agree(empty_graph, embedder, datasets, tmp_path):
    source = toolsandbox.load(datasets / "toolsandbox")
    assert len(source.tools) == 33 and len(source.instances) == 101
    load_catalog(empty_graph, embedder, source.tools, source.catalog, mode=LoadMode.REPLACE, log=lambda *_: None)
    st = graph_stats(empty_graph)
    assert st["labels"]["Tool"] == 33 and st["labels"]["Core"] == 17 and st["labels"]["Regular"] == 16
    assert sum(v for k, v in st["relationships"].items() if k.endswith("DEPENDS_ON")) == 52
    # the split layout gives the same tools
    for name in ("core_tools.json", "regular_tools.json", "instances.json"):
        (tmp_path / name).write_text((datasets / "toolsandbox" / name).read_text())
    assert sorted(t["name"] for t in toolsandbox.load(tmp_path).tools) == sorted(t["name"] for t in source.tools)


def small_catalog():
    return [
        {
            "name": "get_wifi_status",
            "description": "Is wifi on.",
            "parameters": [],
            "func_type": "core",
            "depends_on": [],
        },
        {
            "name": "check_weather",
            "description": "Weather for a city.",
            "func_type": "regular",
            "parameters": [{"name": "city", "type": "string", "description": "City", "required": True}],
            "depends_on": [
                {
                    "name": "get_wifi_status",
                    "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON",
                    "parameter_name": None,
                    "reason": "needs internet",
                }
            ],
        },
    ]


@pytest.fixture
def small_graph(empty_graph, embedder):
    load_catalog(empty_graph, embedder, small_catalog(), "small", mode=LoadMode.REPLACE, log=lambda *_: None)
    return empty_graph


@pytest.mark.parametrize("case", ["malformed_json", "duplicate", "dangling", "strict_unknown_type"])
def test_bad_input_fails_clearly_and_changes_nothing(small_graph, embedder, tmp_path, case):
    before = graph_snapshot(small_graph)
    extra = {"name": "new_tool", "description": "New.", "parameters": [], "func_type": "regular", "depends_on": []}
    path = tmp_path / "catalog.json"
    if case == "malformed_json":
        path.write_text('[{"name": "x",]')
        with pytest.raises(CatalogError, match=r"malformed JSON in .*catalog.json.*line 1"):
            json_catalog.load(path)
        return
    tools = small_catalog() + [extra]
    if case == "duplicate":
        tools.append(dict(extra))
        match = "duplicate tool name 'new_tool'"
    elif case == "dangling":
        extra["depends_on"] = [{"name": "no_such_tool", "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": "x"}]
        match = "dangling dependency target: new_tool -> no_such_tool"
    else:
        extra["depends_on"] = [{"name": "get_wifi_status", "dependence_type": "PARAMETER_DEPENDS_ON", "reason": "x"}]
        match = "rejected under --strict"
    path.write_text(json.dumps(tools))
    with pytest.raises(CatalogError, match=match):
        load_catalog(
            small_graph,
            embedder,
            json_catalog.load(path).tools,
            "small",
            strict=True,
            mode=LoadMode.REPLACE,
            log=lambda *_: None,
        )
    assert graph_snapshot(small_graph) == before


def test_failure_mid_write_rolls_back(small_graph, embedder, monkeypatch):
    """A Neo4j error after some batches were written leaves the graph as it was."""
    before = graph_snapshot(small_graph)

    real_query = ingest.query
    monkeypatch.setattr(
        ingest, "query", lambda name: "RETURN 1/0" if name == "create_dependencies" else real_query(name)
    )
    tools = small_catalog() + [
        {
            "name": "third",
            "description": "Third.",
            "func_type": "regular",
            "depends_on": [{"name": "check_weather", "dependence_type": "TOOL_INDIRECTLY_DEPENDS_ON", "reason": "x"}],
        }
    ]
    with pytest.raises(Exception, match="/ by zero|division"):
        load_catalog(small_graph, embedder, tools, "small", mode=LoadMode.REPLACE, batch_size=1, log=lambda *_: None)
    assert graph_snapshot(small_graph) == before


def test_wrong_embedding_dimension_is_refused(small_graph, tmp_path):
    before = graph_snapshot(small_graph)
    other = Embedder(tiny_sentence_transformer(tmp_path, dimension=32))
    assert other.dimension == 32
    with pytest.raises(SchemaMismatchError, match=r"384 dimensions .* produces 32.*kg-tools schema reindex"):
        load_catalog(small_graph, other, small_catalog(), "small", log=lambda *_: None)
    assert graph_snapshot(small_graph) == before


def test_a_load_by_another_model_of_the_same_dimension_is_refused(small_graph, settings):
    other = Embedder("bge-small-q", models_dir=settings.models_dir)  # 384 dimensions, like the default
    before = graph_snapshot(small_graph)
    extra = [{"name": "book_table", "description": "Book a table.", "parameters": [], "depends_on": []}]
    with pytest.raises(SchemaMismatchError, match=r"2 tool\(s\) by 'all-MiniLM-L6-v2'.*kg-tools schema reindex"):
        load_catalog(small_graph, other, extra, "other", log=lambda *_: None)
    assert graph_snapshot(small_graph) == before
    # replacing everything (eval) or the whole catalog that holds them is fine
    load_catalog(small_graph, other, small_catalog(), "small", mode=LoadMode.REPLACE, log=lambda *_: None)
    models = small_graph.read("MATCH (t:Tool) RETURN collect(DISTINCT t.embedding_model) AS m")[0]["m"]
    assert models == ["bge-small-en-v1.5-q"]


def test_retrieval_and_readiness_refuse_vectors_of_another_model(small_graph, settings, embedder):
    """After a change of model (KG_TOOLS_EMBED_MODEL, or the default's), searching the old vectors with
    the new model's query would return unrelated tools: retrieval refuses, /readyz says why."""

    other = Embedder("bge-small-q", models_dir=settings.models_dir)  # 384 dimensions, like the default
    request = RetrievalRequest(query="what is the weather in Paris")
    with pytest.raises(
        SchemaMismatchError, match=rf"2 tool\(s\) by {embedder.name!r}.*unrelated tools.*kg-tools schema reindex"
    ):
        Pipeline(small_graph, other, settings).retrieve(request)
    state = readiness(small_graph, other.name)
    assert not state["ready"] and "kg-tools schema reindex" in state["problems"][0]
    assert readiness(small_graph, embedder.name)["ready"]
    assert Pipeline(small_graph, embedder, settings).retrieve(request).names[0] == "check_weather"


def test_reindex_switches_embedder_and_reembeds_everything(small_graph, tmp_path):
    other = Embedder(tiny_sentence_transformer(tmp_path, dimension=32))
    small_graph.write(
        "MATCH (t:Tool {name: 'check_weather'}) CREATE (:Question {text: 'is it raining?'})-[:ASKS_FOR]->(t)"
    )
    try:
        drop_vector_indexes(small_graph)
        apply_schema(small_graph, other.dimension, other.name)
        transactions = []
        real = small_graph.transaction
        with pytest.MonkeyPatch.context() as patch:  # one bounded transaction per batch (of 1 here)
            patch.setattr(small_graph, "transaction", lambda work: transactions.append(1) or real(work))
            assert reembed_all(small_graph, other, batch_size=1) == (2, 1)
        assert len(transactions) == 3
        assert vector_index_dimensions(small_graph) == 32
        sizes = small_graph.read(
            "MATCH (n) WHERE n:Tool OR n:Question RETURN collect(DISTINCT size(n.embedding)) AS sizes, "
            "collect(DISTINCT n.embedding_model) AS models"
        )[0]
        assert sizes["sizes"] == [32] and sizes["models"] == [other.name]
        # loading with the new embedder now works
        load_catalog(small_graph, other, small_catalog(), "small", log=lambda *_: None)
    finally:  # the rest of the session uses the default 384-d embedder
        small_graph.write("MATCH (n) DETACH DELETE n")
        drop_vector_indexes(small_graph)
