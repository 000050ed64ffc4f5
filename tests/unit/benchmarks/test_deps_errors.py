"""The error analysis of dependency inference (benchmarks/deps_errors.py) on a real server of the dev corpus."""

from __future__ import annotations

import math

from benchmarks.deps_corpus import catalogs
from benchmarks.deps_errors import CAUSES, analyse, attributions, top_level, wants
from benchmarks.train_scorer import prepare
from kg_tools.deps.scoring import FEATURES, KINDS, default_scorer


def test_every_missed_edge_has_one_cause_and_attributions_add_up():
    [memory] = [c for c in catalogs("dev") if c.key == "mcp_memory"]
    rows = prepare(memory)
    scorer = default_scorer()
    result = analyse(rows, scorer, None)
    assert result["tp"] + len(result["missed"]) == result["gold"]
    assert result["predicted"] - result["tp"] == len(result["wrong"])
    assert {m["cause"] for m in result["missed"]} <= set(CAUSES)
    cand = next(c for g in rows.groups for c in g)
    z = scorer.intercept + scorer.rate * sum(tree[0][4] for tree in scorer.trees)
    z += sum(attributions(scorer, cand.features).values())
    assert math.isclose(1 / (1 + math.exp(-z)), scorer.probability(cand.features), abs_tol=1e-9)


def test_a_nested_want_is_matched_to_the_gold_parameter_that_holds_it():
    """The gold names the top-level parameter (`params`, `items`); a nested want names its dotted path."""
    assert top_level("params.projectId") == "params"
    assert top_level("items[].task_id") == "items"
    assert top_level("collection") == "collection"
    # a parameter whose own name has a dot (gRPC-gateway paths): the tool's parameter, not the part before the dot
    assert top_level("execution.workflow_id", {"namespace", "execution.workflow_id"}) == "execution.workflow_id"
    assert top_level("execution.run_id", {"execution.workflow_id", "execution"}) == "execution"
    [circleci] = [c for c in catalogs("dev") if c.key == "circleci"]
    result = analyse(prepare(circleci, nested_wants=True), default_scorer(), None)
    assert not [m for m in result["missed"] if m["cause"] == "no_want:object"]


def test_a_missed_gold_candidate_names_the_feature_that_lowered_it():
    [slack] = [c for c in catalogs("dev") if c.key == "mcp_slack"]
    result = analyse(prepare(slack), default_scorer(), None)
    scored = [m for m in result["missed"] if m["cause"] in ("below_threshold", "outranked", "guard")]
    assert scored and all(m["lowered_by"] in FEATURES for m in scored)
    assert all(m["kind"] in KINDS for m in scored)  # the producer's kind, for the table of causes by kind
    assert all(m.get("cut_by") in (("second", "cap") if m["cause"] == "outranked" else (None,)) for m in scored)
    assert all("lowered_by" not in m for m in result["missed"] if m["cause"] not in ("below_threshold", "outranked"))


def test_a_wanted_parameter_without_any_candidate_is_no_candidate_not_no_want():
    """Gmail's `threadId` is read as a thread's id, but no tool offers threads: the want exists, no tool is its
    candidate (the candidate groups hold only wants with candidates)."""
    [gmail] = [c for c in catalogs("dev") if c.key == "mcp_gmail"]
    rows = prepare(gmail)
    assert wants(rows)[("send_email", "threadId")] == "['thread']/id"
    result = analyse(rows, default_scorer(), None)
    missed = {(m["pair"][0], m["parameter"]): m for m in result["missed"]}
    assert missed[("send_email", "threadId")]["cause"] == "no_candidate"
    assert "['thread']/id" in missed[("send_email", "threadId")]["detail"]
