"""Candidate generation of producer -> consumer inference (kg_tools/deps/producers.py) on small catalogs."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import (
    Want,
    bracketed_words,
    candidate_groups,
    context_resources,
    name_qualifier,
    name_rule_proposals,
    nested_parameters,
    prepare,
    resource_kinds,
    tool_offers,
    want_qualifier,
)
from kg_tools.deps.resources import described_resources, schema_resource


def _tool(name: str, description: str, params: list[dict], **spec) -> ToolInfo:
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params, **spec})


def _candidates(tools: list[ToolInfo]) -> dict[tuple[str, str], set[str]]:
    """(consumer, parameter) -> the names of its candidate producers."""
    _, groups = candidate_groups(tools)
    return {(g[0].consumer.name, g[0].want.parameter): {c.producer.name for c in g} for g in groups if g}


def test_a_description_names_what_it_returns_before_how():
    """ "Search Jira issues using JQL": issues, not JQL; "Find items carrying tags": not `carrying`."""
    assert described_resources("Search Jira issues using JQL (Jira Query Language).") == ["issue"]
    assert described_resources("Lists projects via the admin API") == ["project"]
    assert "carrying" not in described_resources("Find documents carrying one or more tags")


def test_a_required_bare_name_names_the_thing_a_get_or_change_is_about():
    """`get_node(name)` wants a node's name (from `list_nodes`); a create's `name` is the new thing's."""
    name = {"name": "name", "type": "string", "description": "Name of the node", "required": True}
    tools = [
        _tool("list_nodes", "Lists nodes of the cluster with their names.", []),
        _tool("get_node", "Get one node.", [name]),
        _tool("create_node", "Create a node.", [name]),
    ]
    found = _candidates(tools)
    assert "list_nodes" in found[("get_node", "name")]
    assert ("create_node", "name") not in found


def test_a_login_flow_that_hands_out_a_token_provides_it():
    """`updateLoginFlow` (POST, named with `login`, answering with a top-level `session_token`) is a login:
    it provides the session token other calls take; a change offers nothing else of its output."""
    token = {"name": "X-Session-Token", "type": "string", "description": "The session token", "in": "header"}
    session = {"type": "object", "properties": {"session_token": {"type": "string"}, "session": {"type": "object"}}}
    tools = [
        _tool(
            "updateLoginFlow",
            "Submit a login flow.",
            [{"name": "flow", "type": "string", "description": "The flow", "required": True, "in": "query"}],
            http={"method": "POST", "path": "/self-service/login"},
            output_schema=session,
        ),
        _tool("toSession", "Who the session belongs to.", [token], http={"method": "GET", "path": "/sessions/whoami"}),
        _tool(
            "updateSettings",
            "Change settings.",
            [token],
            http={"method": "PUT", "path": "/settings"},
            output_schema={"type": "object", "properties": {"id": {"type": "string"}, "state": {"type": "string"}}},
        ),
    ]
    found = _candidates(tools)
    assert "updateLoginFlow" in found[("toSession", "X-Session-Token")]
    assert "updateSettings" not in found.get(("toSession", "X-Session-Token"), set())


def test_a_from_the_noun_phrase_names_a_source_only_of_an_identifier_and_a_thing():
    """ "Exact target reference from the page snapshot" names `browser_snapshot`; "the continue token from the
    next key" of a paging parameter names no `list_label_keys` (`key` is an identifier word, not a thing); "from the
    account" of an amount, or "from the snapshot" of a size, says where money or a volume comes from, not where the
    value is read."""
    tools = [
        _tool("browser_snapshot", "Capture the page.", []),
        _tool("list_label_keys", "Lists label keys.", []),
        _tool("get_account", "Shows an account.", []),
    ]
    described = [  # (consumer, its description, parameter, type, the parameter's description)
        ("browser_click", "Click.", "ref", "string", "Exact target reference from the page snapshot"),
        ("list_workflows", "Lists workflows.", "continue", "string", "The token to continue from the next key"),
        ("withdraw_funds", "Withdraw money.", "amount", "number", "The amount to withdraw from the account"),
        ("create_volume", "Creates a volume.", "size_gigabytes", "integer", "Ignored when creating from the snapshot"),
    ]
    tools += [
        _tool(name, text, [_param(param, said, type_, required=False)]) for name, text, param, type_, said in described
    ]
    fixed, _ = candidate_groups(tools)
    pairs = {(p.source, p.target) for p in fixed}
    assert ("browser_click", "browser_snapshot") in pairs
    assert ("list_workflows", "list_label_keys") not in pairs
    assert ("withdraw_funds", "get_account") not in pairs
    assert ("create_volume", "browser_snapshot") not in pairs


def test_the_tool_a_description_names_is_no_tool_named_after_tool():
    """ "returned by the execute_insights_query tool" names no `troubleshooting_tool` (a name that ends in `tool`
    without a verb says what it is, no thing it reads: twenty-fifth session, AWS CloudWatch beside ECS)."""
    said = "The ID of the query to cancel. This ID is returned by the execute_insights_query tool."
    tools = [
        _tool("execute_insights_query", "Starts a logs insights query.", [_param("query_string", "The query")]),
        _tool("troubleshooting_tool", "Diagnoses.", []),
        _tool("cancel_insights_query", "Cancels a query.", [_param("query_id", said)]),
    ]
    fixed, _ = candidate_groups(tools)
    assert ("cancel_insights_query", "troubleshooting_tool") not in {(p.source, p.target) for p in fixed}


def _param(name: str, description: str, type_: str = "string", required: bool = True) -> dict:
    return {"name": name, "type": type_, "description": description, "required": required}


def test_a_generic_noun_that_a_tool_lists_is_wanted():
    """`collection` and `model` are too generic for a schema title, but `list-collections` lists them: wanted."""
    listing = {
        "type": "object",
        "properties": {"collections": {"type": "array", "items": {"type": "object", "properties": {"name": {}}}}},
    }
    tools = [
        _tool("list-collections", "List all collections for a given database", [], output_schema=listing),
        _tool("count", "Count the documents of a collection.", [_param("collection", "Collection name")]),
        _tool("list_models", "List all models enabled for access.", []),
        _tool("get_fields", "Describe a model's fields.", [_param("model", "Model")]),
    ]
    found = _candidates(tools)
    assert "list-collections" in found[("count", "collection")]
    assert "list_models" in found[("get_fields", "model")]


def test_glued_identifiers_and_the_x_of_the_y():
    """`filepath` is a file's path, `dirpath` a directory's; `fullname` ("The fullname of the item") an item's name,
    and every tool's `fullname` names the same thing, whatever its description calls it ("... of the job")."""
    tools = [
        _tool("list_files_in_vault", "Lists all files and directories in the vault.", []),
        _tool("get_file_contents", "Return the content of a file.", [_param("filepath", "Path to the file")]),
        _tool("list_files_in_dir", "Lists files in a directory.", [_param("dirpath", "Path to list files from")]),
        _tool("get_all_items", "Get all items from Jenkins", []),
        _tool("get_item", "Get specific item.", [_param("fullname", "The fullname of the item")]),
        _tool("get_item_parameters", "Get the parameters of a job", [_param("fullname", "The fullname of the item")]),
        _tool("get_build_log", "Get the log of a build.", [_param("fullname", "The fullname of the job")]),
    ]
    found = _candidates(tools)
    assert "list_files_in_vault" in found[("get_file_contents", "filepath")]
    assert "list_files_in_vault" in found[("list_files_in_dir", "dirpath")]
    assert "get_all_items" in found[("get_item", "fullname")]
    assert "get_all_items" in found[("get_build_log", "fullname")]
    # the job's provider needs a fullname itself: a lookup, not a provider
    assert "get_item_parameters" not in found[("get_build_log", "fullname")]


def test_the_name_of_any_resource_names_none():
    """ "Name of the resource to describe" says nothing about which resource: no want from it."""
    tools = [
        _tool("list_api_resources", "List the API resources available in the cluster", []),
        _tool("kubectl_describe", "Describe a resource.", [_param("name", "Name of the resource to describe")]),
    ]
    assert ("kubectl_describe", "name") not in _candidates(tools)


def test_an_identifier_falls_back_to_what_its_description_says_it_is_of():
    """`messageId` ("ID of the email message") of a server whose tools return emails: the email search."""
    tools = [
        _tool("search_emails", "Searches for emails using Gmail search syntax", [_param("query", "Query")]),
        _tool("read_email", "Retrieves the content of an email", [_param("messageId", "ID of the email message")]),
    ]
    assert "search_emails" in _candidates(tools)[("read_email", "messageId")]


def test_a_name_with_its_verb_last_and_a_map_of_instances():
    """`firecrawl_monitor_get(id)` wants a monitor; `status.nodes` (a map of node objects) offers node ids."""
    workflow = {
        "type": "object",
        "properties": {
            "status": {
                "type": "object",
                "properties": {
                    "nodes": {
                        "type": "object",
                        "additionalProperties": {"type": "object", "properties": {"id": {"type": "string"}}},
                    }
                },
            }
        },
    }
    tools = [
        _tool("firecrawl_monitor_list", "List all Firecrawl monitors.", []),
        _tool("firecrawl_monitor_get", "Get a single monitor by ID.", [_param("id", "")]),
        _tool("get_workflow", "Get a workflow.", [], output_schema=workflow),
        _tool("get_node_artifact", "Get an artifact of a node.", [_param("nodeId", "")]),
    ]
    found = _candidates(tools)
    assert "firecrawl_monitor_list" in found[("firecrawl_monitor_get", "id")]
    assert "get_workflow" in found[("get_node_artifact", "nodeId")]


def test_a_search_of_the_collection_sent_as_a_post_is_a_path_candidate():
    """`POST /contacts/search` and `POST /points/scroll` read the collection `DELETE /contacts?ids=` and
    `GET /points/{id}` address: path candidates of their values (like `GET /contacts`); another collection's
    search is not."""
    ids = {"name": "ids", "type": "string", "description": "Contact IDs", "in": "query"}
    point = {"name": "id", "type": "string", "description": "", "in": "path", "required": True}
    query = {"name": "query", "type": "string", "description": "A query", "in": "body"}
    tools = [
        _tool("delete_contacts", "Delete contacts.", [ids], http={"method": "DELETE", "path": "/contacts"}),
        _tool("search_contacts", "Search.", [query], http={"method": "POST", "path": "/contacts/search"}),
        _tool("search_lists", "Search.", [query], http={"method": "POST", "path": "/lists/search"}),
        _tool("get_point", "Get a point.", [point], http={"method": "GET", "path": "/points/{id}"}),
        _tool("scroll_points", "Scroll.", [query], http={"method": "POST", "path": "/points/scroll"}),
    ]
    _, groups = candidate_groups(tools)
    found = {(c.consumer.name, c.producer.name): c for g in groups for c in g}
    assert found[("delete_contacts", "search_contacts")].path_list
    assert found[("get_point", "scroll_points")].path_list
    assert ("delete_contacts", "search_lists") not in found


def test_a_post_to_a_search_path_is_a_search_and_a_numbered_title_names_its_resource():
    """`POST /contacts/search` is a search (not a create), and its `contact-details3` items are contacts: its
    `result[].id` serves the contact ids of `DELETE /contacts?ids=`."""
    found = {"title": "contact-details3", "type": "object", "properties": {"id": {"type": "string"}}}
    output = {"type": "object", "properties": {"result": {"type": "array", "items": found}}}
    query = {"name": "query", "type": "string", "description": "A query", "in": "body"}
    search = _tool(
        "search", "Search.", [query], http={"method": "POST", "path": "/contacts/search"}, output_schema=output
    )
    ids = {"name": "ids", "type": "string", "description": "Contact IDs", "in": "query"}
    delete = _tool("delete_contacts", "Delete contacts.", [ids], http={"method": "DELETE", "path": "/contacts"})
    assert schema_resource("contact-details3") == "contact"
    _, groups = candidate_groups([search, delete])
    (candidate,) = [c for g in groups for c in g if c.producer.name == "search"]
    assert candidate.producer.kind == "search"
    assert candidate.offer is not None and candidate.offer.resource == "contact" and candidate.offer.field == "id"


def test_a_search_offers_what_it_searches_across():
    """ "Search for documents matching a query across all files in the vault" searches files: a candidate of a
    file path; a search that says nothing of files is not."""
    query = {"name": "query", "type": "string", "description": "Text to search for."}
    path = {"name": "filepath", "type": "string", "description": "Path to the file.", "required": True}
    tools = [
        _tool(
            "simple_search", "Simple search for documents matching a text query across all files in the vault.", [query]
        ),
        _tool("search_tags", "Search tags by name.", [query]),
        _tool("list_files", "Lists files in the vault.", []),
        _tool("get_file_contents", "Return the content of a single file.", [path]),
    ]
    found = _candidates(tools)[("get_file_contents", "filepath")]
    assert "simple_search" in found
    assert "search_tags" not in found


def test_a_typed_name_wants_a_resource_of_that_type_from_a_reader_taking_a_type():
    """`describe(resourceType, name)` names an instance of the type it is given: `get(resourceType, name?)`, which
    says it gets or lists, provides it; a listing of the types themselves (`list_api_resources`) does not."""
    kind = {"name": "resourceType", "type": "string", "description": "Type of resource (e.g. pods)", "required": True}
    name = {"name": "name", "type": "string", "description": "Name of the resource", "required": True}
    optional = {**name, "required": False}
    tools = [
        _tool(
            "get_resources", "Get or list resources by resource type, name, and optionally namespace", [kind, optional]
        ),
        _tool("list_api_resources", "List the API resources available in the cluster", []),
        _tool("describe_resource", "Describe resources by resource type and name", [kind, name]),
        _tool("delete_resource", "Delete resources by resource type and name", [kind, name]),
    ]
    found = _candidates(tools)
    assert found[("describe_resource", "name")] == {"get_resources"}
    assert found[("delete_resource", "name")] == {"get_resources"}


def test_a_name_without_a_type_beside_it_is_not_typed():
    """A `name` with no resource type beside it keeps the rules it had (a create's `name` is the new thing's)."""
    name = {"name": "name", "type": "string", "description": "Name of the release", "required": True}
    tools = [
        _tool("list_resources", "Get or list resources by resource type", []),
        _tool("install_chart", "Install a chart", [name]),
    ]
    assert ("install_chart", "name") not in _candidates(tools)


def test_the_bare_id_of_a_listing_names_the_owner_of_what_it_lists():
    """`monitor_checks(id)` ("List historical checks for a monitor") takes a monitor's id: `monitor_list` provides it,
    not a tool about checks."""
    ident = {"name": "id", "type": "string", "description": "", "required": True}
    read_only = {"readOnlyHint": True}
    tools = [
        _tool("svc_monitor_list", "List all monitors for the account.", [], annotations=read_only),
        _tool("svc_monitor_checks", "List historical checks for a monitor.", [ident], annotations=read_only),
        _tool("svc_check_status", "Get the status of a check.", [ident], annotations=read_only),
    ]
    found = _candidates(tools)
    assert found[("svc_monitor_checks", "id")] >= {"svc_monitor_list"}
    assert "svc_check_status" not in found[("svc_monitor_checks", "id")]


def test_a_description_that_names_the_tool_that_started_its_subject_is_an_edge():
    """ "commands started with start_process()", "Pass a `scrapeId` from a previous scrape": the named tool provides
    the parameter the sentence names, else the first required identifier; a mention of another kind is no edge."""
    pid = {"name": "pid", "type": "integer", "description": "Process id", "required": True}
    text = {"name": "input", "type": "string", "description": "Input to send", "required": True}
    scrape_id = {"name": "scrapeId", "type": "string", "description": "", "required": False}
    url = {"name": "url", "type": "string", "description": "", "required": False}
    tools = [
        _tool("start_process", "Start a new terminal process.", [{"name": "command", "type": "string"}]),
        _tool(
            "interact_with_process", "Send input to long-running commands started with start_process().", [pid, text]
        ),
        _tool("scrape", "Scrape a page.", [url]),
        _tool(
            "interact", "Interact with a page. Pass a `scrapeId` from a previous scrape to reuse it.", [url, scrape_id]
        ),
        _tool("read_file", "Read a file. For bulk changes use start_process with Python.", [text]),
    ]
    fixed, _ = candidate_groups(tools)
    edges = {(e.source, e.target, e.parameter_name) for e in fixed}
    assert ("interact_with_process", "start_process", "pid") in edges
    assert ("interact", "scrape", "scrapeId") in edges
    assert not any(e[0] == "read_file" for e in edges)


def test_a_written_query_and_a_paging_token_want_nothing():
    """`jql` ("JQL query string") is written by a person and `page_token` ("Pagination token from a previous search
    result") comes back from the same tool: neither wants another tool's output."""
    jql = {"name": "jql", "type": "string", "description": "JQL query string (Jira Query Language).", "required": True}
    token = {"name": "page_token", "type": "string", "description": "Pagination token from a previous search result."}
    tools = [
        _tool("jira_search", "Search Jira issues using JQL.", [jql, token]),
        _tool("jira_list_jql_filters", "List saved JQL filters.", []),
        _tool("get_page", "Get a page.", [{"name": "page_id", "type": "string", "required": True}]),
        _tool("list_pages", "List pages.", []),
    ]
    found = _candidates(tools)
    assert ("jira_search", "jql") not in found
    assert ("jira_search", "page_token") not in found
    assert "list_pages" in found[("get_page", "page_id")]


def test_a_search_named_by_its_verb_alone_reads_what_its_description_says():
    """`jira_search` ("Search Jira issues using JQL") reads issues as `search_issues` would: the resource is in its
    name for the scorer (`resource_in_name`), which a search of something else does not get."""
    key = {"name": "issue_key", "type": "string", "description": "Jira issue key", "required": True}
    tools = [
        _tool("jira_search", "Search Jira issues using JQL.", []),
        _tool("jira_search_fields", "Search Jira fields by keyword.", []),
        _tool("jira_get_issue", "Get details of a specific Jira issue.", [key]),
    ]
    _, groups = candidate_groups(tools)
    by_producer = {c.producer.name: c for g in groups for c in g if c.want.parameter == "issue_key"}
    assert by_producer["jira_search"].resource_in_name


def _flow_tools(kind: str) -> list[ToolInfo]:
    """create/get/update tools of one kind of flow (`createLoginFlow` ...), each create returning a flow id."""
    flow = {"title": f"{kind}Flow", "type": "object", "properties": {"id": {"type": "string"}}}
    fid = {"name": "id", "type": "string", "description": "The flow ID", "in": "query", "required": True}
    base = f"/self-service/{kind.lower()}"
    return [
        _tool(f"create{kind}Flow", "Create a flow.", [], http={"method": "GET", "path": base}, output_schema=flow),
        _tool(f"get{kind}Flow", "Get a flow.", [fid], http={"method": "GET", "path": f"{base}/flows"}),
        _tool(f"update{kind}Flow", "Submit a flow.", [fid], http={"method": "POST", "path": base}),
    ]


def test_another_kind_of_a_resource_is_no_candidate():
    """A login flow's id comes from the login flows' create, not the settings flows' (both return a `flow` id) nor
    a flow's error: `login` and `settings` name kinds of flow, each with tools of three verbs."""
    error = {"title": "flowError", "type": "object", "properties": {"id": {"type": "string"}}}
    errors = _tool(
        "getFlowError", "Get a flow error.", [], http={"method": "GET", "path": "/errors"}, output_schema=error
    )
    found = _candidates([*_flow_tools("Login"), *_flow_tools("Settings"), errors])
    assert "createLoginFlow" in found[("getLoginFlow", "id")]
    assert "getFlowError" not in found[("getLoginFlow", "id")]  # about a flow's error, not a login flow
    assert "createSettingsFlow" not in found[("getLoginFlow", "id")]
    assert "createLoginFlow" not in found[("getSettingsFlow", "id")]


def test_one_qualifier_or_an_adjective_makes_no_kind():
    """One qualified family alone (`/mc/lists`, only login flows) or an adjective of one or two tools
    (`get_saved_tracks`) keeps every producer of the resource a candidate."""
    kinds = resource_kinds(prepare(_flow_tools("Login") + _flow_tools("")))
    assert kinds == {}
    assert name_qualifier("createBrowserLoginFlow") == ("create", "flow", ("browser", "login"))
    assert name_qualifier("WorkflowService_DeleteWorkflow") == ("delete", "workflow", ())
    assert name_qualifier("getTasksForProject") == ("get", "task", ())
    assert name_qualifier("DELETE_asm-groups-group_id") == ("delete", "group", ("asm",))


def test_a_path_built_name_says_its_parent_once_and_no_version():
    """A name built from a path (`get-v1-company_benefits-company_benefit_id`) repeats its parent once per segment
    and opens with a version: neither is a kind, so the company benefits' get and their list are one kind."""
    assert name_qualifier("get-v1-company_benefits-company_benefit_id") == ("get", "benefit", ("company",))
    assert name_qualifier("get-v1-companies-company_id-company_benefits") == ("get", "benefit", ("company",))
    assert name_qualifier("get-v1-employees-employee_id-home_addresses") == ("get", "address", ("employee", "home"))


def test_a_post_to_a_create_action_of_the_collection_is_a_creator():
    """`POST /workflows/{ns}/submit` makes a workflow as `POST /workflows/{ns}` does: a path candidate (create)
    of `DELETE /workflows/{ns}/{name}`."""
    ns = {"name": "namespace", "type": "string", "description": "", "in": "path", "required": True}
    name = {"name": "name", "type": "string", "description": "", "in": "path", "required": True}
    tools = [
        _tool(
            "DeleteWorkflow", "Delete.", [ns, name], http={"method": "DELETE", "path": "/workflows/{namespace}/{name}"}
        ),
        _tool("SubmitWorkflow", "Submit.", [ns], http={"method": "POST", "path": "/workflows/{namespace}/submit"}),
        _tool("LintWorkflow", "Lint.", [ns], http={"method": "POST", "path": "/workflows/{namespace}/lint"}),
    ]
    _, groups = candidate_groups(tools)
    found = {(c.consumer.name, c.want.parameter, c.producer.name): c for g in groups for c in g}
    assert found[("DeleteWorkflow", "name", "SubmitWorkflow")].path_create
    assert ("DeleteWorkflow", "name", "LintWorkflow") not in found


def test_the_qualifier_share_says_how_much_of_the_wanted_kind_a_producer_names():
    """`project_membership_gid` wants a membership of a project: a producer named with `project` shares 1, one
    without 0; a bare `id` of a tool named after the bare resource has no qualifier (-1)."""
    gid = {"name": "project_membership_gid", "type": "string", "description": "", "in": "path", "required": True}
    tools = [
        _tool(
            "getProjectMembership",
            "Get.",
            [gid],
            http={"method": "GET", "path": "/project_memberships/{project_membership_gid}"},
        ),
        _tool(
            "getProjectMemberships", "List.", [], http={"method": "GET", "path": "/projects/{p}/project_memberships"}
        ),
        _tool("getMemberships", "List.", [], http={"method": "GET", "path": "/memberships"}),
    ]
    _, groups = candidate_groups(tools)
    share = {c.producer.name: c.qualifier_share for g in groups for c in g if c.want.parameter == gid["name"]}
    assert share["getProjectMemberships"] == 1.0
    assert share.get("getMemberships", 0.0) == 0.0
    assert want_qualifier(prepare(tools)["getMemberships"], Want("id", ["membership"], "id", True)) == set()


def test_this_field_in_a_description_is_the_parameter_itself():
    """ "DEPRECATED: This field is ignored." names no resource "field"; "the field to sort by" still would."""
    tool = prepare([_tool("UpdateThing", "Update.", [], http={"method": "PUT", "path": "/things/{ns}/{name}"})])
    tool = tool["UpdateThing"]
    ignored = {"name": "name", "description": "DEPRECATED: This field is ignored."}
    assert "field" not in context_resources(tool, ignored, "name", {"field", "thing"})
    assert "field" in context_resources(tool, {"name": "name", "description": "The field"}, "name", {"field"})


def test_a_bare_id_of_a_tool_read_by_its_key_names_the_thing_before_by():
    """`projects-get-project-by-id(id)`: "by id" says how the project is read, the id is a project's; a "by" that
    names another thing (`list-tasks-by-project(id)`) keeps it."""
    tools = prepare(
        [
            _tool("projects-get-project-by-id", "Get Project", [{"name": "id", "description": "Resource identifier"}]),
            _tool("find-user-by-email", "Find a user", [{"name": "id"}]),
            _tool("list-tasks-by-project", "List tasks", [{"name": "id"}]),
        ]
    )
    known = {"project", "user", "task"}
    bare = {"name": "id", "description": "Resource identifier"}
    assert context_resources(tools["projects-get-project-by-id"], bare, "id", known) == ["project"]
    assert context_resources(tools["find-user-by-email"], {"name": "id"}, "id", known) == ["user"]
    assert context_resources(tools["list-tasks-by-project"], {"name": "id"}, "id", known) == ["project"]


def test_a_description_that_names_a_step_before_the_tool_is_a_workflow_edge():
    """ "After completing data model design with dynamodb_data_modeling tool": a tool-level edge (no parameter takes
    what the step made); "call download_paper first" with the parameter the sentence names, a parameter edge; "use X
    instead" or another server's tool of that name is no edge."""
    workspace = _param("workspace_dir", "Absolute path of the workspace directory")
    paper = _param("paper_id", "arXiv id")
    tools = [
        _tool("db__dynamodb_data_modeling", "Retrieves the data modeling expert prompt.", []),
        _tool(
            "db__dynamodb_data_model_validation",
            "Validates data models.\n\nWHEN TO USE:\n- After completing data model design with dynamodb_data_modeling "
            "tool\n- When user asks to validate",
            [workspace],
        ),
        _tool("arxiv__download_paper", "Download a paper.", [paper]),
        _tool(
            "arxiv__read_paper", "Read a paper. The `paper_id` must be downloaded: call download_paper first.", [paper]
        ),
        _tool("arxiv__read_text", "DEPRECATED: use read_paper instead.", [paper]),
        _tool("other__read_paper", "Read a local paper after download_paper ran.", [paper]),
    ]
    fixed, _ = candidate_groups(tools)
    edges = {(e.source, e.target): (e.type, e.parameter_name) for e in fixed}
    assert edges[("db__dynamodb_data_model_validation", "db__dynamodb_data_modeling")] == (
        "TOOL_DIRECTLY_DEPENDS_ON",
        None,
    )
    assert edges[("arxiv__read_paper", "arxiv__download_paper")] == ("PARAMETER_DIRECTLY_DEPENDS_ON", "paper_id")
    assert ("arxiv__read_text", "arxiv__read_paper") not in edges
    assert not any(s == "other__read_paper" for s, _ in edges)


def test_a_parameter_description_names_no_source_as_an_alternative_a_later_step_or_a_flag():
    """ "fetch them later with jira_get_issue", "the topic used in watch_topic", `jira_search` inside
    `jira_search_fields`, a boolean flag, "from the export" of the export's
    own creator: no source; "Use jira_search_fields to find field IDs" is one."""
    tools = [
        _tool("jira_get_issue", "Get an issue.", [_param("issue_key", "Issue key")]),
        _tool("jira_search", "Search issues.", [_param("jql", "JQL query string")]),
        _tool("jira_search_fields", "Search fields.", []),
        _tool("watch_topic", "Watch a topic.", [_param("topic", "A query")]),
        _tool("list_export", "List exports.", []),
        _tool(
            "jira_update_issue",
            "Update an issue.",
            [
                _param("return_fields", "Fields to return. If you later need others, fetch them with jira_get_issue."),
                _param("field_id", "Custom field ID. Use jira_search_fields to find field IDs."),
                _param("notify", "Notify watchers; see jira_get_issue", "boolean", False),
            ],
        ),
        _tool("unwatch_topic", "Stop watching.", [_param("topic", "Must match the topic used in watch_topic.")]),
        _tool("create_export", "Export contacts.", [_param("max_file_size", "The largest file from the export")]),
    ]
    fixed, _ = candidate_groups(tools)
    pairs = {(p.source, p.target, p.parameter_name) for p in fixed}
    assert ("jira_update_issue", "jira_search_fields", "field_id") in pairs
    assert not {(s, t) for s, t, _ in pairs} & {
        ("jira_update_issue", "jira_get_issue"),
        ("jira_update_issue", "jira_search"),
        ("unwatch_topic", "watch_topic"),
        ("create_export", "list_export"),
    }


def _ids(resource: str) -> dict:
    """An output schema listing instances of `resource` by id."""
    item = {"title": resource, "type": "object", "properties": {"id": {"type": "string"}}}
    return {"type": "object", "properties": {"results": {"type": "array", "items": item}}}


def test_wants_inside_a_referenced_or_alternative_object_parameter():
    """An MCP `parent` that is `anyOf` a `$ref` to a `oneOf` (a page's `{page_id}` or a database's `{database_id}`)
    or a string: both ids are wanted, neither required (alternatives); a reference cycle ends the walk. An HTTP
    operation's `oneOf` body members are alternative requests: not read."""
    schema = {
        "$defs": {
            "parentRequest": {
                "oneOf": [
                    {"type": "object", "properties": {"page_id": {"type": "string"}}, "required": ["page_id"]},
                    {"type": "object", "properties": {"database_id": {"type": "string"}}},
                    {"$ref": "#/$defs/parentRequest"},
                ]
            }
        },
        "type": "object",
        "properties": {"parent": {"anyOf": [{"$ref": "#/$defs/parentRequest"}, {"type": "string"}]}},
        "required": ["parent"],
    }
    parent = {"name": "parent", "type": "string", "description": "", "required": True}
    tools = [
        _tool("create_page", "Create a page.", [parent], input_schema=schema),
        _tool("search_pages", "Search.", [], output_schema=_ids("page")),
        _tool("search_databases", "Search.", [], output_schema=_ids("database")),
        _tool("login", "Log in.", [parent], input_schema=schema, http={"method": "POST", "path": "/login"}),
    ]
    nested = {p["path"]: p for p in nested_parameters(prepare(tools)["create_page"])}
    assert set(nested) == {"parent.page_id", "parent.database_id"}
    assert not nested["parent.page_id"]["required"]
    found = _candidates(tools)
    assert "search_pages" in found[("create_page", "parent.page_id")]
    assert "search_databases" in found[("create_page", "parent.database_id")]
    assert nested_parameters(prepare(tools)["login"]) == []


def _posted(name: str, path: str, field: str, schema: dict) -> ToolInfo:
    """`POST path` whose body is one undescribed object `field` of `schema`."""
    wrapper = {"name": field, "type": "object", "description": "", "in": "body"}
    body = {"type": "object", "properties": {field: schema}}
    return _tool(name, "Create.", [wrapper], http={"method": "POST", "path": path}, input_schema=body)


def _lister(name: str, path: str, resource: str) -> ToolInfo:
    """`GET path` listing instances of `resource` by id."""
    return _tool(name, "List.", [], http={"method": "GET", "path": path}, output_schema=_ids(resource))


def test_the_fields_of_a_body_wrapped_in_its_collections_name_are_wanted():
    """`POST /addresses {address: {country_id}}` (Rails): the wrapper is named after the path's collection, so its
    undescribed fields are wanted like top-level ones; listmonk's undescribed `send_at.template_id` still is not."""
    body = {"type": "object", "properties": {"country_id": {"type": "string"}, "city": {"type": "string"}}}
    at = {"type": "object", "properties": {"template_id": {"type": "number"}}}
    tools = [
        _posted("create_address", "/api/addresses", "address", body),
        _posted("create_campaign", "/campaigns", "send_at", at),
        _lister("list_countries", "/countries", "country"),
        _lister("list_templates", "/templates", "template"),
    ]
    found = _candidates(tools)
    assert "list_countries" in found[("create_address", "address.country_id")]
    assert ("create_campaign", "send_at.template_id") not in found


def test_a_bracketed_filter_wants_the_identifier_it_filters_on():
    """`filter[product_id_eq]` (Ransack, JSON:API) filters on a product id; a text match or a comparison of
    another field is a value a person gives; a name without brackets keeps its words."""
    assert bracketed_words("filter[product_id_eq]") == ["product", "id"]
    assert bracketed_words("where[user_id]") == ["user", "id"]
    assert bracketed_words("filter[id_not_in]") == ["id"]
    assert bracketed_words("filter[sku_i_cont]") == []
    assert bracketed_words("filter[created_at_gt]") == []
    assert bracketed_words("page[size]") == ["page", "size"]
    eq = {"name": "filter[product_id_eq]", "type": "string", "description": "", "in": "query"}
    cont = {"name": "filter[name_cont]", "type": "string", "description": "", "in": "query"}
    tools = [
        _tool("list_variants", "List.", [eq, cont], http={"method": "GET", "path": "/variants"}),
        _lister("list_products", "/products", "product"),
    ]
    found = _candidates(tools)
    assert "list_products" in found[("list_variants", "filter[product_id_eq]")]
    assert ("list_variants", "filter[name_cont]") not in found


def test_an_internal_id_is_an_identifier():
    """`issue_iid` (an id internal to a project, GitLab) wants an issue's id like `issue_id` does."""
    iid = {"name": "issue_iid", "type": "string", "description": "The internal ID of a project issue", "required": True}
    tools = [
        _tool("delete_issue", "Delete an issue.", [iid]),
        _lister("list_issues", "/issues", "issue"),
    ]
    assert "list_issues" in _candidates(tools)[("delete_issue", "issue_iid")]


def test_a_generic_schemas_instances_are_of_the_collection_its_path_names():
    """JSON:API's `resources_list` (`data[].id` of a "resource") of `GET /variants` lists variants."""
    generic = {"title": "resource_properties", "type": "object", "properties": {"id": {"type": "string"}}}
    listed = {"type": "array", "items": {"allOf": [generic]}}
    output = {"title": "resources_list", "type": "object", "properties": {"data": listed}}
    tools = prepare(
        [_tool("variants_list", "List.", [], http={"method": "GET", "path": "/variants"}, output_schema=output)]
    )
    offers = tool_offers(tools["variants_list"])
    assert [(o.resource, o.field) for o in offers] == [("resource", "id"), ("variant", "id")]


def test_a_nested_property_whose_description_names_its_source_is_an_edge():
    """`items[].color`: "Refer to the name column in the `utils_get_colors` tool" is an edge to that tool; a nested
    description's plain word ("the document count") names no tool called `count`, nor does it name another server's
    tool of the same name."""
    items = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "color": {"type": "string", "description": "Refer to the name column in the `utils_get_colors` tool"},
                "parts": {"type": "number", "description": "Sub-indexes when the document count exceeds a billion"},
            },
        },
    }
    param = {"name": "items", "type": "array", "description": "", "required": True}
    tools = [
        _tool(
            "create_labels", "Create labels.", [param], input_schema={"type": "object", "properties": {"items": items}}
        ),
        _tool("utils_get_colors", "The colors.", []),
        _tool("paint__utils_get_colors", "Another server's colors.", []),
        _tool("count", "Count documents.", []),
    ]
    fixed, _ = candidate_groups(tools)
    assert [(p.source, p.target, p.parameter_name) for p in fixed] == [
        ("create_labels", "utils_get_colors", "items[].color")
    ]


def _untitled(nested: str) -> dict:
    """MCP structured output of a list: an object wrapping untitled items with an id and a nested reference."""
    reference = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
    item = {"type": "object", "properties": {"id": {"type": "string"}, nested: reference}}
    return {"type": "object", "properties": {"items": {"type": "array", "items": item}}}


def test_untitled_items_are_instances_of_what_the_reader_is_about():
    """`getCycles` answers `{"items": [{"id", "team": {"id"}}]}`: the items' id is a cycle's, the team's a nested
    reference (not the cycle list's own offer); `getCycleById` is about a cycle too. An action path names nothing."""
    tools = prepare(
        [
            _tool("linear_getCycles", "Get cycles.", [], output_schema=_untitled("team")),
            _tool(
                "linear_getCycleById",
                "Get a cycle.",
                [],
                output_schema=_untitled("team")["properties"]["items"]["items"],
            ),
            _tool(
                "scroll",
                "Scroll points.",
                [],
                http={"method": "POST", "path": "/points/scroll"},
                output_schema=_untitled("point"),
            ),
            _tool(
                "list_users",
                "Users.",
                [],
                http={"method": "GET", "path": "/projects/{id}/users"},
                output_schema=_untitled("team"),
            ),
        ]
    )
    for t in tools.values():
        t.kind = "list"
    offers = {name: {(o.resource, o.path): o.primary for o in tool_offers(t)} for name, t in tools.items()}
    assert offers["linear_getCycles"][("cycle", "items[].id")] is True
    assert offers["linear_getCycles"][("team", "items[].team.id")] is False
    assert offers["linear_getCycleById"][("cycle", "id")] is True
    assert ("scroll", "items[].id") not in offers["scroll"]
    assert offers["list_users"][("user", "items[].id")] is True


def test_the_own_data_of_an_embedded_instance_is_not_wanted():
    """A full model posted back (`created_by: {id, bot_owner_id}`) carries the embedded user's own references: not
    wanted. The embedded object's identifier is (`member_user.user_id`), and so are the fields of the consumer's own
    resource (`issue_data.state_id` of `create_issue`)."""

    def described(name: str) -> dict:
        return {"type": "string", "description": f"The {name.replace('_', ' ')}."}

    def obj(*names: str) -> dict:
        return {"type": "object", "properties": {n: described(n) for n in names}}

    def body(name: str, path: str, field: str, schema: dict) -> ToolInfo:
        p = {"name": field, "type": "object", "description": "", "in": "body"}
        return _tool(
            name, "Add.", [p], http={"method": "PUT", "path": path}, input_schema={"properties": {field: schema}}
        )

    issue_data = {"name": "issue_data", "type": "object", "description": "The issue."}
    tools = [
        body("put_labels", "/labels", "created_by", obj("id", "bot_owner_id")),
        body("add_member", "/projects/{id}/members", "member_user", obj("user_id", "username")),
        _tool(
            "create_issue",
            "Create an issue.",
            [issue_data],
            input_schema={"properties": {"issue_data": obj("id", "state_id")}},
        ),
        _lister("list_users", "/users", "user"),
        _lister("list_bot_owners", "/bot_owners", "bot owner"),
        _lister("list_states", "/states", "state"),
    ]
    found = _candidates(tools)
    assert ("put_labels", "created_by.bot_owner_id") not in found
    assert "list_users" in found[("add_member", "member_user.user_id")]
    assert "list_states" in found[("create_issue", "issue_data.state_id")]


def test_a_status_without_parameters_gates_its_system_but_not_an_http_job():
    """`get_wifi_status` is the state `set_wifi_enabled` needs; `GET /migration/todoist/status` is a job's
    progress, no prerequisite of starting the migration."""
    wifi = [_tool("get_wifi_status", "Is wifi on.", []), _tool("connect_wifi_network", "Connect.", [])]
    job = [
        _tool(
            "get_migration_todoist_status", "Status.", [], http={"method": "GET", "path": "/migration/todoist/status"}
        ),
        _tool(
            "post_migration_todoist_migrate",
            "Migrate.",
            [],
            http={"method": "POST", "path": "/migration/todoist/migrate"},
        ),
    ]
    assert [(e.source, e.target) for e in name_rule_proposals(prepare(wifi))] == [
        ("connect_wifi_network", "get_wifi_status")
    ]
    assert name_rule_proposals(prepare(job)) == []


def test_a_getter_setter_pair_is_a_device_setting_not_an_instance_s():
    """`get_wifi_status()` / `set_wifi_status(on)` read and change one setting of the device; a getter that needs an
    instance (`get_table_protection(table_id)`) reads that item's state: no pair."""
    wifi = [
        _tool("get_wifi_status", "Is wifi on.", []),
        _tool("set_wifi_status", "Turn wifi on or off.", [{"name": "on", "type": "boolean", "required": True}]),
    ]
    table_id = {"name": "table_id", "type": "string", "required": True}
    table = [
        _tool("get_table_protection", "Whether the table is protected.", [table_id]),
        _tool("set_table_protection", "Protect the table.", [table_id, {"name": "protected", "type": "boolean"}]),
    ]
    assert {(e.source, e.target) for e in name_rule_proposals(prepare(wifi))} == {
        ("get_wifi_status", "set_wifi_status"),
        ("set_wifi_status", "get_wifi_status"),
    }
    assert name_rule_proposals(prepare(table)) == []


def test_an_untitled_wrapper_of_another_collection_keeps_its_own_resource():
    """`get_channel_history` answers `{"messages": [{"id"}]}`: message ids, primary (the channel names nothing in
    it); a titled `allOf` member names its top, not the path."""
    history = {
        "type": "object",
        "properties": {"messages": {"type": "array", "items": _untitled("user")["properties"]["items"]["items"]}},
    }
    member = {"allOf": [{"title": "Account", "type": "object", "properties": {"id": {"type": "string"}}}]}
    tools = prepare(
        [
            _tool("get_channel_history", "History.", [], output_schema=history),
            _tool(
                "get_member",
                "Member.",
                [],
                http={"method": "GET", "path": "/orgs/{org}/members/{name}"},
                output_schema=member,
            ),
        ]
    )
    tools["get_channel_history"].kind = tools["get_member"].kind = "get"
    assert ("message", "messages[].id", True) in {
        (o.resource, o.path, o.primary) for o in tool_offers(tools["get_channel_history"])
    }
    assert {o.resource for o in tool_offers(tools["get_member"])} == {"account"}


def test_an_input_object_and_array_elements_are_no_embedded_instances():
    """`input: {id, stateId}` of a tool without HTTP and `line_items[]: {id, product_id}` of an HTTP body are what
    the caller sends: their references are wanted."""
    obj = {
        "type": "object",
        "properties": {"id": {"type": "string"}, "state_id": {"type": "string", "description": "The state."}},
    }
    items = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"id": {"type": "string"}, "product_id": {"type": "string", "description": "The product."}},
        },
    }
    line_items = {"name": "line_items", "type": "array", "description": "", "in": "body"}
    tools = [
        _tool(
            "update_issue",
            "Update an issue.",
            [{"name": "input", "type": "object", "description": "The update."}],
            input_schema={"properties": {"input": obj}},
        ),
        _tool(
            "update_order",
            "Update.",
            [line_items],
            http={"method": "PUT", "path": "/orders/{id}"},
            input_schema={"properties": {"line_items": items}},
        ),
        _lister("list_states", "/states", "state"),
        _lister("list_products", "/products", "product"),
    ]
    found = _candidates(tools)
    assert "list_states" in found[("update_issue", "input.state_id")]
    assert "list_products" in found[("update_order", "line_items[].product_id")]
