"""The learned dependency scorer (kg_tools/deps/scoring.py) and how retrieval treats inferred edges by their
confidence (ordering.by_confidence, OrderAndTruncate): pure, no database."""

import json
import math

import pytest

from kg_tools.deps.infer import infer_catalog
from kg_tools.deps.offline import Examples, ToolInfo
from kg_tools.deps.producers import candidate_groups, candidate_proposal
from kg_tools.deps.resources import ACROSS_TYPES, Offer
from kg_tools.deps.scoring import FEATURES, WEIGHTS_FILE, Scorer, default_scorer, select
from kg_tools.retrieval import ordering
from kg_tools.retrieval.context import Candidate, PipelineEnv, RetrievalContext
from kg_tools.retrieval.request import RetrievalRequest
from kg_tools.retrieval.stages.order import OrderAndTruncate
from kg_tools.settings import Settings
from tests.support.made_up_ops import path_op

# An API whose ids are named nothing the word lists know (`team_key`, `{slug}`) and whose lists are wrapped
TEAMS = [
    path_op("listTeams", "GET", "/teams", output={"type": "object", "properties": {"values": {"type": "array"}}}),
    path_op("listTeamMembers", "GET", "/teams/{team_key}/members", ["team_key"]),
    path_op("removeTeamMember", "DELETE", "/teams/{team_key}/members/{slug}", ["team_key", "slug"]),
    path_op("listOrgMembers", "GET", "/orgs/{org}/members", ["org"]),
]


def _tools(raw):
    return [ToolInfo.from_raw(t) for t in raw]


def test_the_shipped_weights_load_and_give_probabilities():
    scorer = default_scorer()
    data = json.loads(WEIGHTS_FILE.read_text())
    assert set(data["features"]) <= set(FEATURES) and scorer.trees and 0 < scorer.threshold < 1
    _, groups = candidate_groups(_tools(TEAMS))
    for c in (c for g in groups for c in g):
        assert len(c.features) == len(FEATURES)
        assert 0.0 <= scorer.probability(c.features) <= 1.0


def test_path_templates_give_candidates_whatever_the_ids_are_called():
    _, groups = candidate_groups(_tools(TEAMS))
    by = {(c.consumer.name, c.want.parameter, c.producer.name): c for g in groups for c in g}
    team = by[("removeTeamMember", "team_key", "listTeams")]
    assert team.path_list and not team.adds_conflict
    member = by[("removeTeamMember", "slug", "listTeamMembers")]  # /teams/{}/members lists what {slug} names
    assert member.path_list
    scoped = by[("removeTeamMember", "slug", "listOrgMembers")]  # the same collection under another parent
    assert scoped.path_scoped and not scoped.path_list
    proposal = candidate_proposal(team, 0)
    assert (proposal.method, proposal.parameter_name) == ("path-template", "team_key")
    assert "GET /teams" in proposal.reason


def _always(**params) -> Scorer:
    """A scorer without trees: every candidate has probability 0.5."""
    base = dict(threshold=0.4, second=0.5, per_parameter=3, hub_share=1.0, hub_min=0)
    return Scorer((), 0.0, 0.1, **(base | params))


def _mcp(name, description, properties, output=None):
    """An MCP tool whose arguments all live in one object `params` (or an `items` array of objects)."""
    wrapper, inner = next(iter(properties.items()))
    return {
        "name": name,
        "description": description,
        "parameters": [{"name": wrapper, "type": "array" if "[]" in inner else "object", "required": True}],
        "input_schema": {
            "type": "object",
            "properties": {wrapper: _nested(inner)},
            "required": [wrapper],
        },
        **({"output_schema": output} if output else {}),
    }


def _nested(names):
    obj = {"type": "object", "properties": {n: {"type": "string"} for n in names.strip("[]").split(",")}}
    obj["required"] = list(obj["properties"])
    return {"type": "array", "items": obj} if names.startswith("[]") else obj


def test_parameters_nested_in_an_object_or_array_want_their_provider():
    projects = {
        "type": "object",
        "properties": {
            "projects": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}
        },
    }
    raw = [
        _mcp("list_projects", "List the projects", {"params": "limit"}, output=projects),
        _mcp("delete_project", "Delete a project", {"params": "projectId"}),
        _mcp("close_tasks", "Close tasks", {"items": "[]project_id,task_name"}),
    ]
    _, groups = candidate_groups(_tools(raw), nested_wants=True)
    groups = [g for g in groups if g]  # `items[].task_name` wants a task: no tool here lists them
    wanted = {(g[0].consumer.name, g[0].want.parameter): {c.producer.name for c in g} for g in groups}
    assert wanted[("delete_project", "params.projectId")] == {"list_projects"}
    assert wanted[("close_tasks", "items[].project_id")] == {"list_projects"}
    assert all(g[0].want.required for g in groups)  # required at every level
    result = infer_catalog(_tools(raw), None, Examples([]), min_confidence=0.0, nested_wants=True)
    edge = next(e for e in result.edges if e.source == "delete_project")
    assert (edge.target, edge.parameter_name) == ("list_projects", "params.projectId")
    # on by default; off when asked: nothing nested is wanted
    assert infer_catalog(_tools(raw), None, Examples([]), min_confidence=0.0).edges
    _, groups = candidate_groups(_tools(raw), nested_wants=False)
    assert not any(g for g in groups)
    assert not infer_catalog(_tools(raw), None, Examples([]), min_confidence=0.0, nested_wants=False).edges


def test_nested_wants_are_identifiers_and_never_served_by_a_tool_that_takes_the_same_property():
    projects = {"type": "object", "properties": {"projects": {"type": "array", "items": {"type": "object"}}}}
    projects["properties"]["projects"]["items"]["properties"] = {"slug": {"type": "string"}}
    text = {"type": "object", "properties": {"text": {"type": "string"}}}
    raw = [
        _mcp("list_followed_projects", "List the projects the user follows", {"params": "limit"}, output=projects),
        # CircleCI: every tool takes `params.projectSlug`; one that lists builds is another consumer of it
        _mcp("list_project_builds", "List the builds of a project", {"params": "projectSlug"}, output=projects),
        _mcp("run_pipeline", "Run a pipeline of a project", {"params": "projectSlug"}),
        # filesystem: `edits[].oldText` is text to replace, not an instance another tool lists
        _mcp("read_text", "Read a file as text", {"params": "path"}, output=text),
        _mcp("edit_file", "Edit a file", {"edits": "[]oldText,newText"}),
    ]
    _, groups = candidate_groups(_tools(raw))
    wanted = {(g[0].consumer.name, g[0].want.parameter): {c.producer.name for c in g} for g in groups if g}
    assert wanted[("run_pipeline", "params.projectSlug")] == {"list_followed_projects"}
    assert not any(parameter.startswith("edits") for _, parameter in wanted)


def test_selection_abstains_below_the_threshold_and_guards_hubs():
    _, groups = candidate_groups(_tools(TEAMS))
    for g in groups:
        for c in g:
            c.probability = 0.5
    accepted, abstained = select(groups, _always(threshold=0.6))
    assert accepted == [] and abstained["below_threshold"] == sum(1 for g in groups if g)
    accepted, _ = select(groups, _always(per_parameter=1))
    assert len({(c.consumer.name, c.want.parameter) for c in accepted}) == len(accepted)
    # a producer chosen for more than hub_share of the parameters keeps only its path-backed edges
    accepted, abstained = select(groups, _always(hub_share=0.0))
    assert all(c.path_list or c.path_create or c.path_scoped for c in accepted)


def test_inference_reports_the_parameters_it_left_without_a_provider():
    result = infer_catalog(_tools(TEAMS), None, Examples([]))
    assert set(result.abstained) == {"no_candidate", "below_threshold", "hub"}
    assert all(e.method for e in result.edges) and all(0 <= e.confidence <= 1 for e in result.edges)
    left = sum(result.abstained.values())
    assert left == 0 or any("left without a provider" in n for n in result.notes)


def _dep(name, parent, confidence=None, inferred=False):
    return {
        "name": name,
        "spec": None,
        "via": {
            "from": parent,
            "type": "PARAMETER_DIRECTLY_DEPENDS_ON",
            "inferred": inferred,
            "confidence": confidence,
        },
    }


def test_by_confidence_splits_sure_doubtful_and_dropped_dependencies():
    deps = [
        _dep("catalog_edge", "seed"),
        _dep("sure", "seed", 0.95, True),
        _dep("doubtful", "seed", 0.65, True),
        _dep("below_doubtful", "doubtful"),  # reached through a doubtful edge: doubtful too
        _dep("weak", "seed", 0.3, True),
        _dep("below_weak", "weak"),
    ]
    sure, doubtful = ordering.by_confidence(deps, follow=0.5, sure=0.8)
    assert [d["name"] for d in sure] == ["catalog_edge", "sure"]
    assert [d["name"] for d in doubtful] == ["doubtful", "below_doubtful"]
    sure, doubtful = ordering.by_confidence(deps, follow=0.0, sure=0.0)
    assert len(sure) == len(deps) and doubtful == []


@pytest.mark.parametrize("sure_confidence,expected", [(0.0, ["a", "a_dep", "b"]), (0.8, ["a", "b", "a_dep"])])
def test_a_doubtful_dependency_is_listed_after_the_next_seed(sure_confidence, expected):
    settings = Settings(deps_sure_confidence=sure_confidence, deps_query_relevance=0)
    stage = OrderAndTruncate(PipelineEnv(graph=None, embedder=None, settings=settings))  # type: ignore[arg-type]
    ctx = RetrievalContext(RetrievalRequest(query="q", K=3, k=2, supplied_last=False))
    ctx.candidates = [Candidate("a", 0.9, deps=[_dep("a_dep", "a", 0.6, True)]), Candidate("b", 0.8, deps=[])]
    stage.run(ctx)
    assert [t.name for t in ctx.tools] == expected
    hit = next(t for t in ctx.tools if t.name == "a_dep")
    assert hit.via[0].inferred and hit.via[0].confidence == 0.6


# A workspace holds five collections; a team (listed inside a workspace) holds projects too
WORKSPACES = [
    path_op("listWorkspaces", "GET", "/workspaces"),
    *(
        path_op(f"list{n.title()}ForWorkspace", "GET", f"/workspaces/{{workspace_gid}}/{n}", ["workspace_gid"])
        for n in ("projects", "teams", "tags", "users", "goals")
    ),
    path_op("listProjectsForTeam", "GET", "/teams/{team_gid}/projects", ["team_gid"]),
    path_op("listProjects", "GET", "/projects"),
    path_op("getTasksForProject", "GET", "/projects/{project_gid}/tasks", ["project_gid"]),
]


def test_lists_inside_a_container_are_told_from_lists_inside_what_it_holds():
    _, groups = candidate_groups(_tools(WORKSPACES))
    by = {c.producer.name: c for g in groups for c in g if c.want.parameter == "project_gid"}
    assert by["listProjectsForWorkspace"].scope == 2  # /workspaces: top-level, five collections inside
    assert by["listProjectsForTeam"].scope == 1  # teams are listed inside a workspace
    assert by["listProjects"].path_list and by["listProjects"].scope == 0
    # four collections inside are not a container
    _, groups = candidate_groups(_tools([t for t in WORKSPACES if t["name"] != "listGoalsForWorkspace"]))
    assert all(c.scope == 0 for g in groups for c in g)


def test_a_list_inside_a_container_may_be_kept_beyond_the_per_parameter_cap():
    _, groups = candidate_groups(_tools(WORKSPACES))
    [group] = [g for g in groups if g and g[0].want.parameter == "project_gid"]
    # the workspace's list last, below half the best
    p = {"listProjects": 0.9, "listProjectsForTeam": 0.8, "listProjectsForWorkspace": 0.35}
    for c in group:
        c.probability = p.get(c.producer.name, 0.0)
    kept = {c.producer.name for c in select([group], _always(threshold=0.3, per_parameter=2))[0]}
    assert kept == {"listProjects", "listProjectsForTeam"}
    kept = {c.producer.name for c in select([group], _always(threshold=0.3, per_parameter=2, root_extra=1))[0]}
    assert kept == set(p)
    kept = {c.producer.name for c in select([group], _always(threshold=0.4, per_parameter=2, root_extra=1))[0]}
    assert kept == {"listProjects", "listProjectsForTeam"}  # never below the threshold


def test_a_candidate_kept_beyond_the_cap_twice_over_is_kept_once():
    """A list inside a container that is also a search across types (both kept beyond the cap) is one provider
    (eighteenth session, review)."""
    _, groups = candidate_groups(_tools(WORKSPACES))
    [group] = [g for g in groups if g and g[0].want.parameter == "project_gid"]
    p = {"listProjects": 0.9, "listProjectsForTeam": 0.8, "listProjectsForWorkspace": 0.5}
    for c in group:
        c.probability = p.get(c.producer.name, 0.0)
        if c.producer.name == "listProjectsForWorkspace":
            c.offer = Offer(c.producer.name, "project", "*", ACROSS_TYPES, True, "description")
    kept = [c.producer.name for c in select([group], _always(threshold=0.3, per_parameter=2, root_extra=1))[0]]
    assert sorted(kept) == sorted(p)


def test_weights_fitted_before_a_feature_was_added_still_load():
    """A file's trees name their features by its own list: they are read by name, not position."""
    data = json.loads(WEIGHTS_FILE.read_text()) | {
        "features": ["hub", "path_list"],
        "trees": [[[1, 0.5, 1, 2, 0.0], [-2, 0.0, -1, -1, -1.0], [-2, 0.0, -1, -1, 1.0]]],
    }
    scorer = Scorer.from_dict(data)
    assert scorer.trees[0][0][0] == FEATURES.index("path_list") and scorer.trees[0][1][0] < 0
    x = [0.0] * len(FEATURES)
    x[FEATURES.index("path_list")] = 1.0
    assert scorer.probability(x) > scorer.probability([0.0] * len(FEATURES))
    with pytest.raises(ValueError, match="not_a_feature"):
        Scorer.from_dict(data | {"features": ["hub", "not_a_feature"]})


def test_hand_rank_counts_the_candidates_of_the_parameter_the_rules_score_higher():
    _, groups = candidate_groups(_tools(TEAMS))
    hand, rank = FEATURES.index("hand"), FEATURES.index("hand_rank")
    seen = 0
    for group in groups:
        for c in group:
            assert len(c.features) == len(FEATURES)
            higher = sum(other.features[hand] > c.features[hand] for other in group)
            assert c.features[rank] == min(higher, 3)
            seen += 1
    assert seen


def test_the_trees_score_many_rows_at_once_as_one_at_a_time():
    """`probabilities` walks every tree for all rows in numpy: the same log-odds as walking one row through the
    trees in order, for rows on both sides of every split (and beyond one 4,096-row step)."""

    scorer = default_scorer()
    rows = [[((i * 7 + j * 13) % 11) / 5.0 for j in range(len(FEATURES) + 2)] for i in range(4100)]

    def walk(x):
        z = scorer.intercept
        for tree in scorer.trees:
            node = 0
            while tree[node][2] >= 0:
                feature, threshold, left, right, _ = tree[node]
                node = left if x[feature] <= threshold else right
            z += scorer.rate * tree[node][4]
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))

    assert scorer.probabilities(rows) == pytest.approx([walk(x) for x in rows], abs=1e-12)
    assert scorer.probabilities([]) == []
