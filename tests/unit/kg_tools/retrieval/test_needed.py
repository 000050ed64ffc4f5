"""Inferred dependencies a request likely does not need (kg_tools/retrieval/needed.py) and where
OrderAndTruncate lists them: pure, no database."""

import json

from kg_tools.retrieval import needed, relevance
from kg_tools.retrieval.context import Candidate, PipelineEnv, RetrievalContext
from kg_tools.retrieval.request import RetrievalRequest
from kg_tools.retrieval.stages.order import OrderAndTruncate, _fills_required
from kg_tools.settings import Settings


def _spec(name, required=(), optional=(), http=True):
    parameters = [{"name": p, "required": True} for p in required] + [{"name": p, "required": False} for p in optional]
    operation = {"http": {"method": "POST", "path": "/" + name}} if http else {}
    return json.dumps({"name": name, "parameters": parameters, **operation})


def _dep(name, source, parameter, confidence=0.9, inferred=True, spec=None):
    return {
        "name": name,
        "spec": spec,
        "via": {
            "from": source,
            "type": "PARAMETER_DIRECTLY_DEPENDS_ON",
            "parameter_name": parameter,
            "inferred": inferred,
            "confidence": confidence if inferred else None,
        },
    }


SEARCH = _spec("get_search", optional=["query", "owner_user_ids"])
VERSIONS = _spec("post_files_id_versions_current", required=["file_id"], optional=["collections"])
# Box-like: a file's version made current; search and a folder listing both return file ids
BOX = [
    _dep("get_search", "post_files_id_versions_current", "file_id", 0.91, spec=SEARCH),
    _dep("get_users", "get_search", "owner_user_ids", 0.74),  # an optional filter of the search
    _dep("get_users_me", "get_users", "external_app_user_id", 0.45),  # reached through it
    _dep("get_folders_id_items", "post_files_id_versions_current", "file_id", 0.58),  # a second provider
    _dep("get_collections", "post_files_id_versions_current", "collections", 0.8),  # the seed's optional field
]


def test_optional_filters_of_dependencies_and_second_unnamed_providers_are_unneeded():
    query = "roll contract.docx back to its previous version"
    # the seed's own optional parameters stay: what a request adds is in them (Spotify's `uris`)
    assert needed.unneeded("post_files_id_versions_current", VERSIONS, BOX, query) == {
        "get_users",
        "get_folders_id_items",
    }


def test_what_the_query_says_keeps_a_dependency():
    # the query names the folder (the second provider's words)
    query = "put the file of the Archive folder into my Favorites collection"
    assert needed.unneeded("post_files_id_versions_current", VERSIONS, BOX, query) == {"get_users"}


def test_a_second_provider_that_names_the_value_and_catalog_edges_stay():
    spec = _spec("createSectionForProject", required=["project_gid"])
    deps = [
        _dep("getProjects", "createSectionForProject", "project_gid", 0.9),
        _dep("getProjectsForWorkspace", "createSectionForProject", "project_gid", 0.59),  # names projects
        _dep("listThings", "createSectionForProject", "project_gid", inferred=False),  # a catalog edge
    ]
    assert needed.unneeded("createSectionForProject", spec, deps, "create a section in the Mobile project") == set()


def test_the_most_confident_provider_and_generic_parameters():
    spec = _spec("post_tasks", optional=["item.id"])
    deps = [
        _dep("get_search", "post_tasks", "item.id", 0.91),
        _dep("get_folders_id_items", "post_tasks", "item.id", 0.73),
    ]
    # `item` names no resource: the seed's optional item is not "unsaid"; the folder listing, second, names nothing
    assert needed.unneeded("post_tasks", spec, deps, "approve the review task on proposal.docx") == {
        "get_folders_id_items"
    }


def test_split_moves_what_is_reached_through_an_unneeded_dependency():
    sure = [d for d in BOX if d["via"]["confidence"] >= 0.5]
    doubtful = [d for d in BOX if d["via"]["confidence"] < 0.5]
    kept, still_doubtful, moved = needed.split_unneeded(sure, doubtful, {"get_users"})
    assert [d["name"] for d in kept] == ["get_search", "get_folders_id_items", "get_collections"]
    assert still_doubtful == []
    assert [d["name"] for d in moved] == ["get_users", "get_users_me"]


def test_resource_words_drop_verbs_ids_and_glue():
    assert needed.resource_words("get_folders_id_items") == {"folders", "folder"}
    assert needed.resource_words("getProjectsForWorkspace") == {"projects", "project", "workspace"}
    assert needed.resource_words("item.id") == set()


def _order(query, by_request=True, spec=VERSIONS):
    settings = Settings(deps_by_request=by_request, deps_query_relevance=0)  # no embeddings here
    stage = OrderAndTruncate(PipelineEnv(graph=None, embedder=None, settings=settings))  # type: ignore[arg-type]
    ctx = RetrievalContext(RetrievalRequest(query=query, K=10, k=2, supplied_last=False))
    ctx.candidates = [
        Candidate("post_files_id_versions_current", 0.9, spec=spec, deps=BOX),
        Candidate("put_files_id_versions_id", 0.8, deps=[]),
        Candidate("spare", 0.7, deps=[]),
    ]
    stage.run(ctx)
    return [t.name for t in ctx.tools]


def test_unneeded_dependencies_are_listed_last_after_the_fill():
    assert _order("roll contract.docx back to its previous version") == [
        "post_files_id_versions_current",
        "get_search",
        "get_collections",
        "put_files_id_versions_id",  # the next seed, then the fill ...
        "spare",
        "get_users",  # ... then the unneeded ones, with what is reached through them
        "get_folders_id_items",
        "get_users_me",
    ]


def test_a_doubtful_dependency_whose_parameter_the_query_names_is_listed_with_the_sure_ones():
    spec = _spec("PodLogs", required=["namespace", "name"], optional=["podName"])
    deps = [
        _dep("ListWorkflows", "PodLogs", "name", 0.53),
        _dep("GetWorkflow", "PodLogs", "podName", 0.49),
        _dep("ListNamespaces", "PodLogs", "namespace", 0.4),
    ]
    sure, doubtful = needed.said_first("PodLogs", deps[:1], deps[1:], "the logs of the pod that failed")
    assert [d["name"] for d in sure] == ["ListWorkflows", "GetWorkflow"]
    assert [d["name"] for d in doubtful] == ["ListNamespaces"]
    assert needed.unneeded("PodLogs", spec, deps, "the logs of the pod that failed") == set()


def test_the_setting_switches_it_off():
    assert _order("roll contract.docx back to its previous version", by_request=False) == [
        "post_files_id_versions_current",
        "get_search",
        "get_users",
        "get_folders_id_items",
        "get_collections",
        "put_files_id_versions_id",
        "get_users_me",  # doubtful: after the next seed
        "spare",
    ]


def test_only_http_operations_are_ordered_by_request():
    function_tool = _spec("post_files_id_versions_current", ["file_id"], ["collections"], http=False)
    query = "roll contract.docx back to its previous version"
    assert _order(query, spec=function_tool) == _order(query, by_request=False)
    assert needed.http_operation(VERSIONS) and not needed.http_operation(function_tool)
    assert needed.http_operation({"http": {"method": "GET"}}) and not needed.http_operation(None)


def test_one_reading_of_an_optional_edge():
    # `items[].id`, `items.id`, `items[]` lie in the optional `items`; `owner` is required: the rules of needed.py,
    # relevance.py and the order stage (_fills_required) read the same names the same way
    spec = _spec("post_orders", required=["owner"], optional=["items"])
    for name in ("items[].id", "items.id", "items[]", "items"):
        via = _dep("list_items", "post_orders", name)["via"]
        assert needed.only_optional({name}, spec)
        assert relevance._optional_edge(via, spec) and not _fills_required(via, spec)
    assert not needed.only_optional({"items[].id", "owner"}, spec) and not needed.only_optional(set(), spec)
    # rule 1 moves an optional filter of a dependency, however the nested name is spelt
    deps = [
        _dep("post_orders", "post_invoices", "order_id", 0.9, spec=spec),
        _dep("list_items", "post_orders", "items[].id", 0.8),
    ]
    seed = _spec("post_invoices", required=["order_id"])
    assert needed.unneeded("post_invoices", seed, deps, "invoice the last order") == {"list_items"}
