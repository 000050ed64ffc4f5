"""The ToolScope merger on small synthetic catalogs with known answers (real Neo4j, fake LLM only)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import kg_tools.merge as merge
from kg_tools.cli import cli
from kg_tools.errors import AmbiguousToolError, MergeRunNotFoundError
from kg_tools.ingest import LoadMode, load_catalog
from kg_tools.llm import LLMClient
from kg_tools.merge import apply_plan, build_plan, current_phi, list_runs, undo_run
from kg_tools.retrieval import Pipeline, RetrievalRequest
from kg_tools.tool_spec import ToolSpec, tool_document
from tests.conftest import graph_snapshot
from tests.support.fake_openai import FakeOpenAI


def p(name, type_, description, required=True):
    return {"name": name, "type": type_, "description": description, "required": required}


TRIANGLES = ["calculateTriangleArea", "computeTriangleArea", "calcTriangleArea"]
FREE_FALL = "calculateFreeFallSpeed"

CATALOG = [
    {
        "name": "calculateTriangleArea",
        "description": "Calculate the area of a triangle from its base and height",
        "parameters": [
            p("base", "float", "The base of the triangle"),
            p("height", "float", "The height of the triangle"),
        ],
    },
    {
        "name": "computeTriangleArea",
        "description": "Compute the area of a triangle given its base and height",
        "parameters": [
            p("base", "float", "Base length of the triangle"),
            p("height", "float", "Height of the triangle"),
            p("unit", "str", "Unit of the result, e.g. cm^2", False),
        ],
    },
    {
        "name": "calcTriangleArea",
        "description": "Calculate a triangle's area from base length and height",
        "parameters": [
            p("base_length", "float", "The length of the triangle base"),
            p("height", "float", "The height of the triangle"),
        ],
    },
    {
        "name": FREE_FALL,
        "description": "Calculate the speed of an object falling freely from a height",
        "parameters": [
            p("height", "float", "The height of the fall in meters"),
            p("gravity", "float", "Gravitational acceleration", False),
        ],
    },
    {
        "name": "getWeatherForecast",
        "description": "Get the weather forecast for a city",
        "parameters": [p("city", "str", "The city")],
    },
    {
        "name": "sendEmail",
        "description": "Send an email to a recipient",
        "parameters": [
            p("to", "str", "Recipient address"),
            p("subject", "str", "Subject line"),
            p("body", "str", "Text"),
        ],
    },
    {
        "name": "reportGeometry",
        "description": "Write a geometry report for a shape, using its area",
        "parameters": [p("shape", "str", "The shape")],
        "depends_on": [
            {"name": "computeTriangleArea", "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": "needs the area"}
        ],
    },
]


@pytest.fixture
def geometry_graph(empty_graph, embedder):
    load_catalog(empty_graph, embedder, CATALOG, "geometry", mode=LoadMode.REPLACE, log=lambda *_: None)
    return empty_graph


@pytest.mark.integration
def test_three_triangle_variants_merge_offline(geometry_graph, settings):
    plan = build_plan(geometry_graph)
    assert plan.classifier == "offline-rule" and "no LLM configured" in plan.notes[0]
    assert [c.names for c in plan.clusters] == [["calcTriangleArea", "computeTriangleArea", "calculateTriangleArea"]]
    cluster = plan.clusters[0]
    assert cluster.canonical == "calcTriangleArea"  # shortest name
    # representative's parameters first, the others' unique ones optional
    assert [q["name"] for q in cluster.parameters] == ["base_length", "height", "base", "unit"]
    assert [q["required"] for q in cluster.parameters] == [False, True, False, False]
    assert plan.tools_after == plan.tools_before - 2 and FREE_FALL not in plan.phi
    assert all(m.score >= plan.theta for m in cluster.members)

    result = apply_plan(geometry_graph, plan)
    assert result.applied and result.merged == 2
    assert current_phi(geometry_graph) == {
        "computeTriangleArea": "calcTriangleArea",
        "calculateTriangleArea": "calcTriangleArea",
    }
    rels = geometry_graph.read("MATCH (m)-[r:MERGED_INTO]->(c) RETURN m.name AS m, c.name AS c, properties(r) AS props")
    assert {r["m"] for r in rels} == {"computeTriangleArea", "calculateTriangleArea"}
    assert all(
        r["props"]["run"] == plan.run_id
        and r["props"]["method"] == "offline-rule"
        and r["props"]["score"] >= 0.82
        and r["props"]["reason"]
        for r in rels
    )
    canonical = geometry_graph.read("MATCH (t:Tool {name: 'calcTriangleArea'}) RETURN t.spec AS spec")[0]
    assert json.loads(canonical["spec"])["merged_from"] == ["computeTriangleArea", "calculateTriangleArea"]
    [run] = list_runs(geometry_graph)
    assert run["id"] == plan.run_id and run["theta"] == 0.82 and run["classifier"] == "offline-rule"
    assert run["links"] == 2 and run["tools_after"] == len(CATALOG) - 2


@pytest.mark.integration
def test_undo_restores_the_graph_exactly(geometry_graph, settings):
    before = graph_snapshot(geometry_graph)
    plan = build_plan(geometry_graph)
    apply_plan(geometry_graph, plan)
    assert graph_snapshot(geometry_graph) != before
    result = undo_run(geometry_graph, plan.run_id)
    assert result["restored"] == 1 and result["unlinked"] == 2
    assert graph_snapshot(geometry_graph) == before
    with pytest.raises(MergeRunNotFoundError):
        undo_run(geometry_graph, plan.run_id)


@pytest.mark.integration
def test_running_the_same_merge_twice_changes_nothing(geometry_graph, settings):
    plan = build_plan(geometry_graph)
    assert apply_plan(geometry_graph, plan).applied
    after_first = graph_snapshot(geometry_graph)
    again = apply_plan(geometry_graph, plan)  # the same plan
    assert not again.applied and "already applied" in again.message
    replanned = build_plan(geometry_graph)  # a fresh plan over the merged graph
    assert replanned.clusters == [] and not apply_plan(geometry_graph, replanned).applied
    assert graph_snapshot(geometry_graph) == after_first
    assert len(list_runs(geometry_graph)) == 1


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["vector", "fulltext", "hybrid"])
def test_retrieval_after_merging_never_returns_a_merged_member(geometry_graph, settings, embedder, mode):
    apply_plan(geometry_graph, build_plan(geometry_graph))
    pipeline = Pipeline(geometry_graph, embedder, settings)
    members = {"computeTriangleArea", "calculateTriangleArea"}
    for text in [
        "compute the area of a triangle",
        "triangle area from base and height",
        "calculate triangle area",
        "geometry report for a triangle",
    ]:
        response = pipeline.retrieve(RetrievalRequest(query=text, k=5, K=10, mode=mode))
        names = response.names
        assert not members & set(names), (text, names)
        assert len(names) == len(set(names))
        hit = next(t for t in response.tools if t.name == "calcTriangleArea")
        assert set(hit.members) == members
    # a dependency on a member resolves through its canonical tool
    response = pipeline.retrieve(RetrievalRequest(query="write a geometry report for a shape", k=1, K=5, mode=mode))
    assert response.names[0] == "reportGeometry"
    assert response.tools[1].name == "calcTriangleArea" and response.tools[1].role == "dependency"


def _script_llm(fake: FakeOpenAI, validator_answer: dict, canonical_answer=None):
    def handler(req):
        prompt = FakeOpenAI.user_prompt(req)
        if "REDUNDANT when" in prompt:  # pair classifier: every geometry pair looks the same to it
            names = [n for n in TRIANGLES + [FREE_FALL] if f'"{n}"' in prompt]
            return json.dumps({"same_intent": len(names) == 2, "reason": "both compute a geometric quantity"})
        if "audit a proposed merge" in prompt:
            return json.dumps(validator_answer)
        if "Write the unified tool" in prompt:
            return canonical_answer if canonical_answer is not None else "not json"
        return "{}"

    fake.script(handler)


@pytest.mark.integration
def test_auto_correction_splits_off_the_free_fall_look_alike(geometry_graph, llm_settings, fake_llm):
    _script_llm(fake_llm, {"merge": "MERGE_BAD", "clusters": [TRIANGLES, [FREE_FALL]]})
    # a low theta makes the look-alike a candidate; the (fake) LLM classifier accepts it
    plan = build_plan(geometry_graph, theta=0.3, llm=LLMClient(llm_settings))
    prompts = [FakeOpenAI.user_prompt(r) for r in fake_llm.requests]
    validations = [q for q in prompts if "audit a proposed merge" in q]
    assert len(validations) == 1 and FREE_FALL in validations[0]  # the classifier did put it in the cluster
    assert plan.classifier == "llm" and plan.validator == "llm"
    assert [sorted(c.names) for c in plan.clusters] == [sorted(TRIANGLES)]
    assert FREE_FALL not in plan.phi
    assert plan.clusters[0].validator == "llm: MERGE_BAD"
    assert any("LLM split" in n for n in plan.notes)
    # the canonical writer answered "not json": offline union used, and the plan says so
    assert plan.clusters[0].writer == "offline-union"
    assert any("canonical writer" in n and "offline union used" in n for n in plan.notes)
    assert apply_plan(geometry_graph, plan).merged == 2


@pytest.mark.integration
def test_invalid_validator_answer_falls_back_to_offline_split(geometry_graph, llm_settings, fake_llm):
    canonical = json.dumps(
        {
            "description": "Area of a triangle from its base and height.",
            "parameters": [
                p("base_length", "float", "Base"),
                p("height", "float", "Height"),
                p("base", "float", "Base", True),
                p("unit", "str", "Unit", False),
            ],
        }
    )
    _script_llm(fake_llm, {"merge": "MERGE_BAD", "clusters": [["calcTriangleArea", "nonexistentTool"]]}, canonical)
    plan = build_plan(geometry_graph, theta=0.3, llm=LLMClient(llm_settings))
    assert any("LLM validator failed" in n and "do not partition" in n for n in plan.notes)
    # offline split: free fall (height + optional gravity) does not align with calcTriangleArea's
    # required base_length, so it is split off
    assert FREE_FALL not in plan.phi and len(plan.clusters) == 1
    cluster = plan.clusters[0]
    assert cluster.writer == "llm" and cluster.description.startswith("Area of a triangle")
    assert [q["required"] for q in cluster.parameters][2:] == [False, False]  # non-representative ones optional


@pytest.mark.integration
def test_auto_correction_off_merges_the_component_as_classified(geometry_graph, llm_settings, fake_llm):
    """The same scripted classifier as above, Auto-Correction off: the look-alike stays in, no audit asked."""

    _script_llm(fake_llm, {"merge": "MERGE_BAD", "clusters": [TRIANGLES, [FREE_FALL]]})
    plan = build_plan(geometry_graph, theta=0.3, llm=LLMClient(llm_settings), auto_correct=False)
    prompts = [FakeOpenAI.user_prompt(r) for r in fake_llm.requests]
    assert not any("audit a proposed merge" in q for q in prompts)
    assert plan.validator == "none (auto-correction off)"
    assert [sorted(c.names) for c in plan.clusters] == [sorted([*TRIANGLES, FREE_FALL])]
    assert plan.phi[FREE_FALL] == plan.clusters[0].canonical


@pytest.mark.integration
def test_cli_auto_correct_switch_reaches_the_plan(monkeypatch):
    """--no-auto-correct (and the setting when the option is not given) decide build_plan's auto_correct."""

    seen = []

    def fake_build_plan(graph, **kwargs):
        seen.append(kwargs["auto_correct"])
        raise SystemExit(0)

    monkeypatch.setattr(merge, "build_plan", fake_build_plan)
    monkeypatch.setattr("kg_tools.commands.context.AppContext.graph", property(lambda self: None), raising=False)
    runner = CliRunner()
    runner.invoke(cli, ["merge", "plan", "--no-auto-correct", "--offline"])
    runner.invoke(cli, ["merge", "plan", "--offline"])
    monkeypatch.setenv("KG_TOOLS_MERGE_AUTO_CORRECT", "false")
    runner.invoke(cli, ["merge", "plan", "--offline"])
    assert seen == [False, True, False]


@pytest.mark.integration
def test_merge_reembeds_the_canonical_tool_and_undo_restores_its_vector(geometry_graph, settings, embedder):

    def stored(name):
        row = geometry_graph.read(
            "MATCH (t:Tool {name: $name}) RETURN t.embedding AS v, t.embedding_model AS m, t.spec AS spec", name=name
        )[0]
        return row["v"], row["m"], row["spec"]

    before = graph_snapshot(geometry_graph)
    old_vector, _, _ = stored("calcTriangleArea")
    plan = build_plan(geometry_graph)
    assert apply_plan(geometry_graph, plan, embedder).applied
    vector, model, spec = stored("calcTriangleArea")
    expected = embedder.embed([tool_document(ToolSpec.model_validate(json.loads(spec)))])[0]
    assert model == embedder.name
    assert vector != old_vector
    assert max(abs(a - b) for a, b in zip(vector, expected.tolist())) < 1e-6
    # the vector index serves the new vector
    pipeline = Pipeline(geometry_graph, embedder, settings)
    response = pipeline.retrieve(RetrievalRequest(query="triangle area from base and height", k=1, K=1, depth=0))
    assert response.names == ["calcTriangleArea"]
    undo_run(geometry_graph, plan.run_id)
    assert graph_snapshot(geometry_graph) == before


@pytest.mark.integration
def test_a_merge_of_one_catalog_leaves_the_same_named_tools_of_another_alone(empty_graph, embedder):
    """A tool is (catalog, name): merging catalog `a` links and rewrites a's tools only; undo restores them;
    a plan over every catalog where a name is in several is refused, naming them."""
    load_catalog(empty_graph, embedder, CATALOG, "a", log=lambda *_: None)
    load_catalog(empty_graph, embedder, CATALOG, "b", log=lambda *_: None)
    before = graph_snapshot(empty_graph)
    with pytest.raises(AmbiguousToolError) as refused:
        build_plan(empty_graph)
    assert refused.value.catalogs == ["a", "b"]
    plan = build_plan(empty_graph, catalog="a")
    assert [c.names for c in plan.clusters] == [["calcTriangleArea", "computeTriangleArea", "calculateTriangleArea"]]
    assert apply_plan(empty_graph, plan).merged == 2

    def rows(cypher: str) -> list[tuple]:
        return [tuple(r.values()) for r in empty_graph.read(cypher)]

    links = "MATCH (m:Tool)-[:MERGED_INTO]->(c:Tool) RETURN m.catalog, c.catalog, m.name ORDER BY m.name"
    assert rows(links) == [("a", "a", "calculateTriangleArea"), ("a", "a", "computeTriangleArea")]
    specs = (
        "MATCH (t:Tool {name: 'calcTriangleArea'}) RETURN t.catalog, t.spec CONTAINS 'merged_from' ORDER BY t.catalog"
    )
    assert rows(specs) == [("a", True), ("b", False)]
    undo_run(empty_graph, plan.run_id)
    assert graph_snapshot(empty_graph) == before
