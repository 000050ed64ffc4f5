"""`kg-tools eval catalog`: a catalog file loaded beside another, evaluated per query kind, removed;
the other catalog is left exactly as it was (real Neo4j)."""

import json

import pytest
from click.testing import CliRunner

from benchmarks.commands.eval import eval_group
from kg_tools.commands.context import AppContext
from kg_tools.ingest import load_catalog
from tests.conftest import graph_snapshot


def _mcp(name, description, *params):
    return {
        "name": name,
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": {p: {"type": "string", "description": p} for p in params},
            "required": list(params),
        },
    }


CATALOG = {
    "tools": [
        _mcp("github__create_issue", "Create a new issue in a GitHub repository.", "owner", "repo", "title"),
        _mcp("github__search_repositories", "Search for GitHub repositories by keyword.", "query"),
        _mcp("filesystem__write_file", "Create a new file or overwrite a file with new content.", "path", "content"),
        _mcp("filesystem__read_file", "Read the complete contents of a file from the file system.", "path"),
        _mcp("fetch__fetch", "Fetch a URL from the internet and return its contents as markdown.", "url"),
        _mcp("slack__post_message", "Post a new message to a Slack channel.", "channel_id", "text"),
        _mcp("time__get_current_time", "Get the current time in a specific timezone.", "timezone"),
    ]
}
QUERIES = [
    {
        "user_query": "open a bug report on my github repo",
        "golden_function_names": ["github__create_issue"],
        "kind": "single",
        "split": "dev",
    },
    {
        "user_query": "what time is it in Tokyo",
        "golden_function_names": ["time__get_current_time"],
        "kind": "single",
        "split": "test",
    },
    {
        "user_query": "read notes.txt and post it to the #general slack channel",
        "golden_function_names": ["filesystem__read_file", "slack__post_message"],
        "kind": "multi",
        "split": "dev",
    },
    {
        "user_query": "fetch https://example.com, then save the page to a file called page.md",
        "golden_function_names": ["fetch__fetch", "filesystem__write_file"],
        "kind": "multi-step",
        "split": "dev",
    },
]
OTHER = [
    {
        "name": "convert_currency",
        "description": "Converts money from one currency to another.",
        "depends_on": [{"name": "get_current_date", "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON", "reason": "date"}],
    },
    {"name": "get_current_date", "description": "Returns today's calendar date.", "func_type": "core"},
]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "mcp_tools.json").write_text(json.dumps(CATALOG))
    (tmp_path / "queries.json").write_text(json.dumps(QUERIES))
    return tmp_path


@pytest.fixture
def app(empty_graph, embedder, settings):
    load_catalog(empty_graph, embedder, OTHER, "other", log=lambda *_: None)
    app = AppContext(settings)
    app._graph, app._embedder = empty_graph, embedder  # the test's graph/embedder (real Neo4j)
    return app


def _invoke(app, *args):
    return CliRunner().invoke(eval_group, ["catalog", *map(str, args)], obj=app)


@pytest.mark.integration
def test_eval_catalog_rows_per_kind_and_other_catalog_untouched(app, files, tmp_path):
    before = graph_snapshot(app.graph)
    out, png = tmp_path / "out.json", tmp_path / "out.png"
    result = _invoke(app, files / "mcp_tools.json", "--queries", files / "queries.json", "--json", out, "--plot", png)
    assert result.exit_code == 0, result.output
    assert "removed catalog 'mcp_tools' (7 tools)" in result.output
    assert graph_snapshot(app.graph) == before  # loaded beside "other", removed, nothing else changed
    payload = json.loads(out.read_text())
    assert payload["dataset"] == "mcp_tools"
    assert [r["method"] for r in payload["rows"]] == ["vector", "grtf"]
    assert set(payload["kinds"]) == {"single", "multi", "multi-step"}
    assert [r["queries"] for r in payload["kinds"]["multi"]] == [1, 1]
    for rows in [payload["rows"], *payload["kinds"].values()]:
        for row in rows:
            for key in ("mAP@10", "Recall@5", "Recall@10", "nDCG@10"):
                assert 0.0 <= row[key] <= 1.0
    vector = payload["rows"][0]
    assert vector["Recall@10"] == 1.0  # 7 tools, top-30: everything is retrieved; only the order differs
    assert payload["config"]["methods"]["grtf"]["request"]["k"] == 3
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "multi-step" in result.output and "Recall@5" in result.output


@pytest.mark.integration
def test_eval_catalog_split(app, files, tmp_path):
    out = tmp_path / "dev.json"
    result = _invoke(
        app,
        files / "mcp_tools.json",
        "--queries",
        files / "queries.json",
        "--split",
        "dev",
        "--methods",
        "vector",
        "--json",
        out,
        "--plot",
        tmp_path / "dev.png",
    )
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["rows"][0]["queries"] == 3


@pytest.mark.integration
def test_eval_catalog_refuses_what_would_touch_other_catalogs(app, files, tmp_path):
    before = graph_snapshot(app.graph)
    in_use = _invoke(app, files / "mcp_tools.json", "--queries", files / "queries.json", "--catalog", "other")
    assert in_use.exit_code != 0 and "already holds 2 tool(s)" in str(in_use.exception)
    # (a tool name another catalog holds is no clash: catalogs are namespaces, issue 30)
    assert graph_snapshot(app.graph) == before

    bad = tmp_path / "bad_queries.json"
    bad.write_text(json.dumps([{"user_query": "x", "golden_function_names": ["nope"]}]))
    unknown = _invoke(app, files / "mcp_tools.json", "--queries", bad)
    assert unknown.exit_code != 0 and "golden tools not in the catalog" in str(unknown.exception)
    unlabelled = _invoke(app, files / "mcp_tools.json", "--queries", bad, "--split", "dev")
    assert unlabelled.exit_code != 0 and "needs `split`" in str(unlabelled.exception)
    assert graph_snapshot(app.graph) == before


@pytest.mark.integration
def test_eval_catalog_servers_are_written_for_grtf_server_and_removed(app, files, tmp_path):
    before = graph_snapshot(app.graph)
    out = tmp_path / "servers.json"
    args = [files / "mcp_tools.json", "--queries", files / "queries.json", "--methods", "grtf,grtf_server"]
    result = _invoke(app, *args, "--servers", "--json", out, "--plot", tmp_path / "s.png")
    assert result.exit_code == 0, result.output
    assert "5 servers written for catalog 'mcp_tools'" in result.output  # github, filesystem, fetch, slack, time
    assert graph_snapshot(app.graph) == before  # the servers went with the catalog
    assert not app.graph.read("MATCH (s:Server) RETURN s.name AS name")
    payload = json.loads(out.read_text())
    assert [r["method"] for r in payload["rows"]] == ["grtf", "grtf_server"]
    assert payload["config"]["servers"] is True
    assert payload["config"]["methods"]["grtf_server"]["request"]["stages"] == ["server-score"]

    nameless = tmp_path / "nameless.json"
    nameless.write_text(json.dumps({"tools": [_mcp("read_file", "Read a file.", "path")]}))
    queries = tmp_path / "q.json"
    queries.write_text(json.dumps([{"user_query": "read a file", "golden_function_names": ["read_file"]}]))
    refused = _invoke(app, nameless, "--queries", queries, "--servers")
    assert refused.exit_code != 0 and "names its server" in str(refused.exception)
    assert graph_snapshot(app.graph) == before


@pytest.mark.integration
def test_eval_catalog_core_marks_the_utilities_the_default_attaches(app, files, tmp_path):
    """`--core`: `kg-tools core detect --apply` after the load (the user's flow); the default attaches them."""
    before = graph_snapshot(app.graph)
    out = tmp_path / "out.json"
    args = ["--queries", files / "queries.json", "--core", "--methods", "grtf_no_utilities,grtf", "--json", out]
    result = _invoke(app, files / "mcp_tools.json", *args, "--plot", tmp_path / "out.png")
    assert result.exit_code == 0, result.output
    assert graph_snapshot(app.graph) == before  # removed with the catalog
    payload = json.loads(out.read_text())
    core = payload["config"]["core"]
    assert core["filesystem__write_file"] == "file_write" and core["fetch__fetch"] == "fetch_url"
    assert "github__create_issue" not in core
    rows = {r["method"]: r for r in payload["kinds"]["multi-step"]}
    assert rows["grtf"]["mAP@10"] >= rows["grtf_no_utilities"]["mAP@10"]
