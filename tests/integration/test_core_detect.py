"""`kg-tools core detect` against the real Neo4j (issue 29 item 2): the generic utilities of real MCP servers
(benchmarks/data/real/catalog_mcp.json) become :Core with a kind and a reason, server-specific tools do not;
dry run writes nothing; idempotent; a catalog's own core tool stays core; get_tool (REST and MCP) shows it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kg_tools import PROJECT_ROOT
from kg_tools.api.app import create_app
from kg_tools.core_tools import CATALOG_REASON, detect
from kg_tools.cypher import query
from kg_tools.implied import implied_utilities, pick_utilities
from kg_tools.ingest import load_catalog
from kg_tools.mcp_server import McpBackend
from tests.conftest import graph_snapshot, wipe
from tests.integration.test_browser_guide import _guide_block
from tests.integration.test_cli_load import assert_one_error_line, cli_env, run_cli, tool  # noqa: F401

pytestmark = pytest.mark.integration
quiet = lambda *_: None  # noqa: E731
SERVERS = {"filesystem", "fetch", "brave_search", "github", "memory"}
CATALOG = Path(PROJECT_ROOT) / "benchmarks" / "data" / "real" / "catalog_mcp.json"


def mcp_tools() -> list[dict]:
    return [t for t in json.loads(CATALOG.read_text()) if t["mcp_server"] in SERVERS]


@pytest.fixture
def loaded(graph, embedder):
    """Five real MCP servers in catalog `mcp`, and catalog `own` whose author marked `own_login` core."""
    wipe(graph)
    load_catalog(graph, embedder, mcp_tools(), "mcp", log=quiet)
    load_catalog(graph, embedder, [{**tool("own_login"), "func_type": "core"}, tool("own_report")], "own", log=quiet)
    return graph


def state(graph, name: str) -> dict:
    return graph.read(
        "MATCH (t:Tool {name: $name}) RETURN labels(t) AS labels, t.func_type AS func_type, "
        "t.core_kind AS kind, t.core_reason AS reason, t.core_source AS source",
        name=name,
    )[0]


def test_dry_run_then_apply_then_again(loaded):
    before = graph_snapshot(loaded)
    dry = detect(loaded, catalog="mcp")
    assert not dry.applied and graph_snapshot(loaded) == before  # a dry run writes nothing
    kinds = {t.name: t.core_kind for t in dry.core}
    assert kinds["filesystem__write_file"] == "file_write"
    assert kinds["fetch__fetch"] == "fetch_url"
    assert kinds["brave_search__brave_web_search"] == "web_search"
    assert kinds["filesystem__read_text_file"] == "file_read"
    assert kinds["memory__create_entities"] == "memory_write"  # "remember that ..." (the one memory tool)
    assert not any(
        name.startswith("github__") or name in ("memory__add_observations", "memory__read_graph") for name in kinds
    )
    assert {t.action for t in dry.core} == {"add"}

    applied = detect(loaded, catalog="mcp", apply=True)
    assert applied.applied and applied.changes == len(dry.core)
    write = state(loaded, "filesystem__write_file")
    assert "Core" in write["labels"] and "Regular" not in write["labels"] and write["func_type"] == "core"
    assert (write["kind"], write["source"]) == ("file_write", "detected")
    assert "parameters 'path' + 'content'" in write["reason"]
    for name in ("github__create_or_update_file", "github__get_file_contents", "memory__add_observations"):
        assert "Regular" in state(loaded, name)["labels"]
    assert loaded.read("MATCH (t:Tool:Core {catalog: 'mcp'}) WHERE t.name STARTS WITH 'github__' RETURN t") == []

    after = graph_snapshot(loaded)
    again = detect(loaded, catalog="mcp", apply=True)
    assert again.changes == 0 and {t.action for t in again.core} == {"keep"}
    assert graph_snapshot(loaded) == after  # idempotent: nothing written


def test_a_catalogs_core_tool_stays_core_and_a_stale_detection_is_undone(loaded):
    # detection made github__create_issue :Core earlier (e.g. an older classifier)
    loaded.write(
        query("core_set"),
        rows=[
            {
                "catalog": "mcp",
                "name": "github__create_issue",
                "kind": "file_write",
                "reason": "old",
                "source": "detected",
            }
        ],
    )
    result = detect(loaded, apply=True)  # all catalogs
    assert result.removed == ["github__create_issue"]
    issue = state(loaded, "github__create_issue")
    assert "Regular" in issue["labels"] and "Core" not in issue["labels"]
    assert (issue["func_type"], issue["kind"], issue["source"]) == ("regular", None, None)
    own = state(loaded, "own_login")
    assert "Core" in own["labels"] and (own["source"], own["reason"]) == ("catalog", CATALOG_REASON)
    assert "Regular" in state(loaded, "own_report")["labels"]


def test_a_load_that_rewrites_a_tool_takes_its_kind_from_the_catalog(loaded, embedder):
    detect(loaded, catalog="mcp", apply=True)
    changed = [
        {**t, "description": t["description"] + " (v2)"} if t["name"] == "fetch__fetch" else t for t in mcp_tools()
    ]
    load_catalog(loaded, embedder, changed, "mcp", log=quiet)
    fetch = state(loaded, "fetch__fetch")
    assert "Regular" in fetch["labels"] and fetch["source"] is None
    assert "Core" in state(loaded, "filesystem__write_file")["labels"]  # unchanged tools keep it
    detect(loaded, catalog="mcp", apply=True)
    assert state(loaded, "fetch__fetch")["kind"] == "fetch_url"


def test_get_tool_shows_the_core_facts_over_rest_and_mcp(loaded, settings, embedder):

    detect(loaded, apply=True)  # all catalogs
    with TestClient(create_app(settings, graph=loaded, embedder=embedder)) as client:
        rest = client.get("/v1/tools/brave_search__brave_web_search").json()
        plain = client.get("/v1/tools/github__create_issue").json()
    assert rest["kind"] == "core" and rest["core_kind"] == "web_search" and rest["core_source"] == "detected"
    assert "described as searching the web" in rest["core_reason"]
    assert plain["kind"] == "regular" and plain["core_kind"] is None and plain["core_reason"] is None
    mcp = McpBackend(settings, graph=loaded, embedder=embedder).get("brave_search__brave_web_search")
    assert (mcp["core_kind"], mcp["core_reason"]) == (rest["core_kind"], rest["core_reason"])
    # the Browser guide's block lists them with their kind, source and reason
    rows = {r["tool"]: r for r in loaded.read(_guide_block("core-utilities"))}
    assert rows["brave_search__brave_web_search"]["reason"] == rest["core_reason"]
    assert (rows["own_login"]["source"], rows["own_login"]["kind"]) == ("catalog", None)


def test_cli(loaded, cli_env, capsys):
    code, out, _ = run_cli(capsys, "core", "detect", "--catalog", "mcp")
    assert code == 0 and "+ filesystem__write_file  [detected]  file_write:" in out and "dry run" in out
    code, out, _ = run_cli(capsys, "core", "detect", "--catalog", "mcp", "--apply", "--json")
    result = json.loads(out)
    assert code == 0 and result["applied"] and "fetch__fetch" in {t["name"] for t in result["core"]}
    code, _, err = run_cli(capsys, "core", "detect", "--catalog", "nope")
    assert code == 1
    assert_one_error_line(err, "catalog not found")


def test_the_utilities_retrieval_attaches(loaded, embedder):
    """cypher/core_utilities + pick_utilities: what a step implying a file write and a URL gets."""

    detect(loaded, catalog="mcp", apply=True)
    step = "Read https://example.com/news and save a summary to notes.txt"
    implied = implied_utilities(step)
    rows = loaded.read(
        query("core_utilities"),
        kinds=[kind for kind, _ in implied],
        catalogs=["mcp"],
        embedding=embedder.embed_query(step),
    )
    assert {r["kind"] for r in rows} == {"fetch_url", "file_write"}
    assert [(t.name, t.kind) for t in pick_utilities(implied, rows)] == [
        ("fetch__fetch", "fetch_url"),
        ("filesystem__write_file", "file_write"),
    ]
    none = loaded.read(query("core_utilities"), kinds=["web_search"], catalogs=["own"], embedding=None)
    assert none == []


def test_rest(loaded, settings, embedder):
    app = create_app(settings.model_copy(update={"api_key": "s3cret"}), graph=loaded, embedder=embedder)
    with TestClient(app) as client:
        dry = client.get("/v1/catalogs/mcp/core")
        assert dry.status_code == 200 and not dry.json()["applied"] and dry.json()["changes"] > 0
        assert client.post("/v1/catalogs/mcp/core").status_code == 401  # a write needs the key
        assert state(loaded, "fetch__fetch")["source"] is None
        key = {"Authorization": "Bearer s3cret"}
        applied = client.post("/v1/catalogs/mcp/core", headers=key).json()
        assert applied["applied"] and applied["changes"] == dry.json()["changes"]
        assert client.post("/v1/catalogs/mcp/core", headers=key).json()["changes"] == 0
        missing = client.get("/v1/catalogs/nope/core")
        assert missing.status_code == 404 and "nope" in missing.json()["detail"]
    assert state(loaded, "fetch__fetch")["kind"] == "fetch_url"
