"""MCP locators and search providers (kg_tools/deps/producers.py, seventh session): which kind of locator a parameter
is, and which searches of the same server return it. Small made-up servers, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups

READ_ONLY = {"readOnlyHint": True}


def _tool(name: str, description: str, params: list[dict], **spec) -> ToolInfo:
    return ToolInfo.from_raw({"name": name, "description": description, "parameters": params, **spec})


def _param(name: str, description: str = "", type_: str = "string", required: bool = True) -> dict:
    return {"name": name, "type": type_, "description": description, "required": required}


def _groups(tools: list[ToolInfo]) -> dict[tuple[str, str], tuple[list[str], set[str]]]:
    """(consumer, parameter) -> (the wanted resources, the names of its candidate producers)."""
    _, groups = candidate_groups(tools)
    return {
        (g[0].consumer.name, g[0].want.parameter): (g[0].want.resources, {c.producer.name for c in g})
        for g in groups
        if g
    }


def _files() -> list[ToolInfo]:
    content_blocks = {"type": "object", "properties": {"content": {"type": "array", "items": {"type": "object"}}}}
    path = [_param("path")]
    return [
        _tool("list_directory", "Get a detailed listing of all files and directories in a specified path.", path),
        _tool("search_files", "Recursively search for files and directories matching a pattern.", path),
        _tool("get_file_info", "Retrieve detailed metadata about a file or directory.", path),
        _tool("read_media_file", "Read a file and return it as base64 content.", path, output_schema=content_blocks),
        _tool("list_allowed_directories", "Returns the list of directories that this server may access.", []),
        _tool("move_file", "Move or rename files and directories.", [_param("source"), _param("destination")]),
        _tool("put_note", "Creates a new file, or overwrites an existing one.", [_param("filepath"), _param("body")]),
        _tool(
            "attach_note", "Attach text to an existing file. To create a new file, use put_note.", [_param("filepath")]
        ),
    ]


def test_a_reader_of_one_file_takes_a_file_path_and_a_reader_by_path_provides_none():
    """`read_media_file(path)` reads a file even though its output lists content blocks (was: a directory to look in);
    `get_file_info(path)` needs a path itself, so it is no provider of a directory's path."""
    found = _groups(_files())
    resources, producers = found[("read_media_file", "path")]
    assert resources == ["file"]
    assert {"search_files", "list_directory"} <= producers
    assert "list_allowed_directories" not in producers
    resources, producers = found[("list_directory", "path")]
    assert resources == ["directory"]
    assert "get_file_info" not in producers and "list_allowed_directories" in producers


def test_a_listing_of_one_directory_names_the_files_it_lists():
    """`list_directory` lists "all files and directories" of one path: a file path's candidate with its resource in
    its name, as `search_files` is."""
    _, groups = candidate_groups(_files())
    by_producer = {
        c.producer.name: c
        for g in groups
        for c in g
        if (c.consumer.name, c.want.parameter) == ("get_file_info", "path")
    }
    assert by_producer["list_directory"].resource_in_name
    assert by_producer["search_files"].resource_in_name


def test_a_moves_source_is_an_existing_thing_and_a_new_files_path_wants_nothing():
    """`move_file(source)` moves an existing file (the search finds it); "Creates a new file, or overwrites ..."
    names a new file by its `filepath`."""
    found = _groups(_files())
    resources, producers = found[("move_file", "source")]
    assert resources == ["file"] and "search_files" in producers
    assert ("move_file", "destination") not in found
    assert ("put_note", "filepath") not in found
    assert found[("attach_note", "filepath")][0][0] == "file"  # "To create a new file, use ...": another tool's


def test_an_element_reference_comes_from_the_search_that_locates_elements_and_their_refs():
    """`target` ("Exact target element reference ...") is an element's ref; a search that "locate[s] an element and
    its ref" offers it. A parameter named after a resource of the catalog keeps its own name's resource."""
    ref = "Exact target element reference from the page, or a unique selector"
    tools = [
        _tool(
            "page_find", "Search the page for text; cheaper when you only need to locate an element and its ref.", []
        ),
        _tool("page_click", "Click on the page.", [_param("target", ref)]),
        _tool("page_hover", "Hover over the page.", [_param("element", "The element reference to hover")]),
    ]
    found = _groups(tools)
    resources, producers = found[("page_click", "target")]
    assert resources == ["element"] and producers == {"page_find"}
    assert found[("page_hover", "element")][0] == ["element"]


def test_an_identifier_that_also_accepts_another_resource_takes_its_providers_when_none_has_its_own():
    """ "Identifier for a block or page": a block's id, else a page's, which a search returns."""
    tools = [
        _tool(
            "post_search", "Search by title", [_param("query", "The text that the API compares page titles against.")]
        ),
        _tool("get_block", "Retrieve a block", [_param("block_id", "Identifier for a block")]),
        _tool("get_comments", "Retrieve comments", [_param("block_id", "Identifier for a block or page")]),
    ]
    found = _groups(tools)
    resources, producers = found[("get_comments", "block_id")]
    assert resources == ["block", "page"] and "post_search" in producers
    assert "post_search" not in found.get(("get_block", "block_id"), ([], set()))[1]


def test_a_search_offers_the_types_it_filters_on_and_a_compound_resource_stays_whole():
    """`data_source_id` is a data source's id (not a "source": "data" is noise in schema titles) when tools are named
    with the compound; a search whose `filter.value` chooses between `page` and `data_source` returns both."""
    flt = {
        "type": "object",
        "properties": {
            "filter": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {
                            "value": {
                                "type": "string",
                                "description": "Filter by type of object",
                                "enum": ["page", "data_source"],
                            }
                        },
                    },
                    {"type": "string"},
                ]
            }
        },
    }
    ds = [_param("data_source_id", "Identifier for a data source")]
    tools = [
        _tool("post_search", "Search by title", [_param("filter", "", "object", False)], input_schema=flt),
        _tool("query_data_source", "Query a data source", ds),
        _tool("retrieve_data_source", "Retrieve a data source", ds),
        _tool("retrieve_page", "Retrieve a page", [_param("page_id", "Identifier for a page")]),
    ]
    found = _groups(tools)
    resources, producers = found[("retrieve_data_source", "data_source_id")]
    assert resources == ["data source"] and "post_search" in producers
    assert "post_search" in found[("retrieve_page", "page_id")][1]


def test_a_search_of_generic_content_offers_the_type_its_query_examples_filter_on():
    """A search of "content" whose query examples say `type=page` returns pages; `source_page_id` is a page's id (the
    name's last noun, which a schema title would drop as a paging word)."""
    query = _param("query", "Search query. Examples: 'type=page AND space=DEV'")
    tools = [
        _tool("wiki_search", "Search wiki content using simple terms.", [query]),
        _tool("wiki_get_page", "Get a page by its ID.", [_param("page_id", "Page ID")]),
        _tool("wiki_copy_page", "Copy a page.", [_param("source_page_id", "The ID of the page to copy")]),
    ]
    found = _groups(tools)
    assert "wiki_search" in found[("wiki_get_page", "page_id")][1]
    resources, producers = found[("wiki_copy_page", "source_page_id")]
    assert resources[0] == "page" and "wiki_search" in producers


def test_a_started_search_is_a_search_of_the_type_it_chooses_and_a_pid_is_a_process_id():
    """`start_search` (read-only) is a search; its `searchType` enum says it finds files, which `edit_block(file_path)`
    takes. `kill_process(pid)`: a process's id, from the process list."""
    search_args = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "searchType": {"type": "string", "enum": ["files", "content"]}},
    }
    tools = [
        _tool(
            "start_search",
            "Start a streaming search.",
            [_param("path"), _param("searchType", required=False)],
            input_schema=search_args,
            annotations=READ_ONLY,
        ),
        _tool("edit_block", "Apply edits to files.", [_param("file_path")]),
        _tool("list_processes", "List all running processes.", [], annotations=READ_ONLY),
        _tool("kill_process", "Terminate a running process by PID.", [_param("pid", type_="number")]),
    ]
    found = _groups(tools)
    assert "start_search" in found[("edit_block", "file_path")][1]
    resources, producers = found[("kill_process", "pid")]
    assert resources == ["process"] and producers == {"list_processes"}


def test_a_parameter_whose_description_opens_with_a_commit_sha_wants_the_commit_from_the_log():
    """`contains` ("The commit sha that the branch should contain") is named by its role; its description says it is a
    commit's sha, which the tool that shows the commits offers (eighth session)."""
    repo = _param("repo_path", "Repo Path")
    tools = [
        _tool("vcs_log", "Shows the commit logs", [repo]),
        _tool(
            "vcs_branches", "List branches", [repo, _param("contains", "The commit sha that the branch should contain")]
        ),
        _tool("vcs_tag", "Tag a revision", [repo, _param("target", "The shell to use for the tag")]),
    ]
    found = _groups(tools)
    resources, producers = found[("vcs_branches", "contains")]
    assert resources == ["commit"] and producers == {"vcs_log"}
    assert ("vcs_tag", "target") not in found  # "The shell to use": no identifier word


def test_a_commit_runs_after_the_tool_that_stages_changes_of_its_server():
    """A tool named after the action what is staged is for (`commit`) depends on the tool that puts changes into the
    staging area; a reader of staged changes and a tool that unstages them are neither (eighth session)."""
    repo = _param("repo_path", "Repo Path")
    tools = [
        _tool("vcs_stage", "Adds file contents to the staging area", [repo, _param("files", type_="array")]),
        _tool("vcs_unstage", "Unstages all staged changes", [repo]),
        _tool("vcs_diff_staged", "Shows changes that are staged for commit", [repo]),
        _tool("vcs_commit", "Records changes to the repository", [repo, _param("message")]),
        _tool("notes_save", "Saves a note", [_param("text")]),
    ]
    fixed, _ = candidate_groups(tools)
    staged = {(p.source, p.target, p.type) for p in fixed}
    assert staged == {("vcs_commit", "vcs_stage", "TOOL_INDIRECTLY_DEPENDS_ON")}
