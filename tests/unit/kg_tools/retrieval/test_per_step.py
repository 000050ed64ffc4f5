"""Issue 29 items 1 and 3 (opt-in): per-step retrieval -- each step searched with its own k, the steps'
best tools first round-robin, `step` on each tool -- and diversification by step, then by server. Pure: no
database (the plan, the merge, the ordering over hand-made rows)."""

import json

from kg_tools.implied import ImpliedTool
from kg_tools.retrieval.context import Candidate, PipelineEnv, RetrievalContext
from kg_tools.retrieval.plan import build_plan, unmet_reads
from kg_tools.retrieval.request import RetrievalRequest, ToolHit
from kg_tools.retrieval.stages.fusion import by_step
from kg_tools.retrieval.stages.order import OrderAndTruncate
from kg_tools.retrieval.stages.per_step import (
    IMPLIED,
    Diversify,
    PerStep,
    _attached,
    _step_texts,
    diversified,
    server_of,
)
from kg_tools.settings import Settings

ENV = PipelineEnv(graph=None, embedder=None, settings=Settings())  # type: ignore[arg-type]  # no database
REQUEST = "search the web for reviews of the Framework 16 laptop, read the top article, then save it to notes.md"


def c(name, score=0.5, server=None, deps=None):
    spec = json.dumps({"name": name, **({"mcp_server": server} if server else {})})
    return Candidate(name, score, spec=spec, deps=deps)


def test_the_request_is_split_into_steps_listed_in_stages():
    ctx = RetrievalContext(request=RetrievalRequest(query=REQUEST), queries=[REQUEST])
    PerStep(ENV).run(ctx)
    assert ctx.queries == [
        REQUEST,
        "search the web for reviews of the Framework 16 laptop",
        "read the top article",
        "save it to notes.md",
    ]
    assert ctx.per_step and ctx.rescore_each and ctx.fusion == "round-robin"
    assert "1: search the web" in ctx.stages[0].detail and "3: save it to notes.md" in ctx.stages[0].detail
    # several sentences split too; one step is searched as it is (and rescored as the default does)
    two = "Find the README. Then send it to bo@example.com."
    ctx = RetrievalContext(request=RetrievalRequest(query=two), queries=[two])
    PerStep(ENV).run(ctx)
    assert len(ctx.queries) == 3
    ctx = RetrievalContext(request=RetrievalRequest(query="book a flight"), queries=["book a flight"])
    PerStep(ENV).run(ctx)
    assert ctx.queries == ["book a flight"] and not ctx.per_step and ctx.rescore_each


def test_each_steps_best_come_first_round_robin_labelled_by_step():
    lists = [[c("a1"), c("a2"), c("a3")], [c("b1"), c("a1"), c("b2")], [c("c1")]]
    merged = by_step(lists)
    assert [(m.name, m.step) for m in merged] == [
        ("a1", 0),
        ("b1", 1),
        ("c1", 2),
        ("a2", 0),
        ("a3", 0),
        ("b2", 1),
    ]


def test_every_step_gets_its_own_k_seeds_with_their_dependencies_and_step():
    dep = {"name": "b1_dep", "spec": None, "via": {"from": "b1", "type": "TOOL_DIRECTLY_DEPENDS_ON"}}
    rows = [c("a1", deps=[]), c("b1", deps=[dep]), c("a2", deps=[]), c("b2", deps=[]), c("a3", deps=[])]
    ctx = RetrievalContext(request=RetrievalRequest(query="q", k=2, K=10, supplied_last=False))
    ctx.candidates = [Candidate(r.name, r.score, spec=r.spec, deps=r.deps, step=1 + (r.name[0] == "b")) for r in rows]
    ctx.seeds = 4  # k = 2 per step, 2 steps
    OrderAndTruncate(ENV).run(ctx)
    assert [(t.name, t.role, t.step) for t in ctx.tools] == [
        ("a1", "seed", 1),
        ("b1", "seed", 2),
        ("b1_dep", "dependency", 2),
        ("a2", "seed", 1),
        ("b2", "seed", 2),
        ("a3", "seed", 1),
    ]
    fill = [s for s in ctx.stages if s.name == "fill"]
    assert fill and fill[0].detail.startswith("4 seed(s)")


def test_step_is_absent_from_the_json_of_a_request_without_steps():
    hit = ToolHit(name="x", kind="regular", role="seed")
    assert "step" not in hit.model_dump(mode="json") and hit.model_copy(update={"step": 2}).model_dump()["step"] == 2


def test_one_server_does_not_take_every_slot_of_a_step():
    stock = [c(f"stocks__price_{i}", server="stocks") for i in range(4)]
    news, crypto = c("news__headlines", server="news"), c("crypto__coin_price", server="crypto")
    assert [x.name for x in diversified([*stock, news, crypto], per_server=1)] == [
        "stocks__price_0",
        "news__headlines",
        "crypto__coin_price",
        "stocks__price_1",
        "stocks__price_2",
        "stocks__price_3",
    ]
    assert server_of(c("github__create_issue")) == "github" and server_of(c("plain")) == ""
    # tools of no known server are each their own: their order is kept
    plain = [c("x"), c("y"), c("z")]
    assert diversified(plain, per_server=1) == plain
    assert [x.name for x in diversified([*stock, news])][3] == "news__headlines"  # PER_SERVER = 3
    # by step first: each step's list diversified, then the steps merged again with their labels
    ctx = RetrievalContext(request=RetrievalRequest(query="q"))
    ctx.candidates = by_step([[*stock, news], [crypto]])
    Diversify(ENV).run(ctx)
    assert [(x.name, x.step) for x in ctx.candidates][:5] == [
        ("stocks__price_0", 0),
        ("crypto__coin_price", 1),
        ("stocks__price_1", 0),
        ("stocks__price_2", 0),
        ("news__headlines", 0),
    ]


def test_per_step_is_opt_in_and_its_plans_are_sound():
    default = [type(s).__name__ for s in build_plan(RetrievalRequest(query=REQUEST), ENV)]
    assert "PerStep" not in default and "Diversify" not in default
    per_step = build_plan(RetrievalRequest(query=REQUEST, stages=["per-step", "diversify"]), ENV)
    assert [type(s).__name__ for s in per_step] == [
        "PerStep",
        "Search",
        "Diversify",
        "Expand",
        "Utilities",
        "OrderAndTruncate",
    ]
    assert unmet_reads(per_step) == []
    alone = build_plan(RetrievalRequest(query="q", stages=["diversify"], utilities=False), ENV)
    names = ["Search", "ServerScore", "Rerank", "Diversify", "Expand", "OrderAndTruncate"]
    assert [type(s).__name__ for s in alone] == names


def test_the_utilities_stage_runs_by_default_after_the_expansion_once():
    default = build_plan(RetrievalRequest(query=REQUEST), ENV)
    names = ["Search", "ServerScore", "Rerank", "Utilities", "OrderAndTruncate"]
    assert [type(s).__name__ for s in default] == names
    assert unmet_reads(default) == []
    named = build_plan(RetrievalRequest(query=REQUEST, stages=["utilities"]), ENV)
    assert [type(s).__name__ for s in named].count("Utilities") == 1
    off = build_plan(RetrievalRequest(query=REQUEST, utilities=False), ENV)
    assert "Utilities" not in [type(s).__name__ for s in off]


def test_the_steps_that_imply_a_utility_are_the_searched_steps():
    ctx = RetrievalContext(request=RetrievalRequest(query=REQUEST), queries=[REQUEST])
    assert _step_texts(ctx) == [(None, REQUEST)]  # a request searched whole: its candidates carry no step
    PerStep(ENV).run(ctx)
    assert [step for step, _ in _step_texts(ctx)] == [1, 2, 3]  # step 0 (the whole request) implies nothing


def test_a_utility_follows_the_dependencies_of_the_steps_best_tool_once():
    dep = {"name": "x_dep", "spec": None, "via": {"from": "x", "type": "TOOL_DIRECTLY_DEPENDS_ON"}}
    best = c("x", deps=[dep])
    rows = {"fs__write_file": {"func_type": "core", "spec": None}, "x_dep": {"func_type": "core", "spec": None}}
    picked = [ImpliedTool("fs__write_file", "file_write", "notes.md"), ImpliedTool("x_dep", "file_read", "a.md")]
    attached = _attached(best, picked, rows)
    assert [d["name"] for d in attached.deps] == ["x_dep", "fs__write_file"]  # one it already has: not twice
    assert attached.deps[-1]["via"] == {
        "from": "x",
        "type": IMPLIED,
        "parameter_name": None,
        "reason": "the step says 'notes.md'",
    }
    assert best.deps == [dep]  # the candidate (perhaps a cached row) is not changed in place
    assert _attached(c("fs__write_file", deps=[]), picked[:1], rows).deps == []  # the best tool is the utility
