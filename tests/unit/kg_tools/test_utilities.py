"""The generic-utility classifier (kg_tools/utilities.py) on the tools/list dumps of real MCP servers, measured
against the hand-labelled dev gold benchmarks/data/real/make/utilities_gold.json (no Neo4j)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg_tools import PROJECT_ROOT
from kg_tools.tool_spec import ToolSpec
from kg_tools.utilities import CatalogTool, classify, classify_catalog, name_words, server_of
from loaders.document import mcp_entries

DATA = Path(PROJECT_ROOT) / "benchmarks" / "data"
GOLD = json.loads((DATA / "real" / "make" / "utilities_gold.json").read_text())


def fresh_dumps() -> set[Path]:
    """The dumps of the corpus's fresh catalogs: nothing is run on them before their session measures them."""
    manifests = sorted((DATA / "deps" / "manifest").glob("*.json"))
    entries = [e for m in manifests for e in json.loads(m.read_text())]
    return {DATA / "deps" / e["file"] for e in entries if e.get("role") == "fresh"}


def dumped_tools() -> list[CatalogTool]:
    """Every tool of the dev servers, named `<server>__<tool>` as in catalog_mcp.json."""
    tools, fresh = [], fresh_dumps()
    for folder in GOLD["servers"].values():
        for path in sorted((Path(PROJECT_ROOT) / folder).glob("*.json")):
            if path in fresh:
                continue
            dump = json.loads(path.read_text())
            for entry in mcp_entries(dump):
                spec = ToolSpec.model_validate({**entry, "name": f"{dump['server']}__{entry['name']}"})
                tools.append(CatalogTool(spec))
    return tools


@pytest.fixture(scope="module")
def predicted():
    tools = dumped_tools()
    assert len(tools) > 1000  # the 33 + 26 servers
    return classify_catalog(tools)


def test_precision_and_recall_on_the_dev_gold(predicted):
    gold = GOLD["utilities"]
    right = sum(gold.get(name) == u.kind for name, u in predicted.items())
    precision, recall = right / len(predicted), right / len(gold)
    print(f"utilities: {len(predicted)} predicted, {len(gold)} gold, P {precision:.3f} R {recall:.3f}")
    assert precision >= 0.9 and recall >= 0.9


def test_server_specific_tools_are_not_utilities(predicted):
    wrong = {name for name in GOLD["hard_negatives"] if name in predicted}
    assert wrong <= {"firecrawl__firecrawl_extract"}  # the one error on dev, kept visible


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("filesystem__write_file", "file_write"),
        ("fetch__fetch", "fetch_url"),
        ("brave_search__brave_web_search", "web_search"),
        ("desktop_commander__start_process", "run_command"),
        ("desktop_commander__write_pdf", "convert_document"),
        ("filesystem__read_text_file", "file_read"),
    ],
)
def test_each_kind_with_its_reason(predicted, name, kind):
    utility = predicted[name]
    assert utility.kind == kind
    assert utility.reason.startswith(f"{kind}: name '")
    assert "server" in utility.reason  # the catalog's evidence


def spec(name, params, description="", annotations=None) -> ToolSpec:
    return ToolSpec.model_validate(
        {
            "name": name,
            "description": description,
            "parameters": [{"name": p, "type": "string"} for p in params],
            "annotations": annotations,
        }
    )


def test_a_remote_object_parameter_makes_a_tool_server_specific():
    assert classify(spec("write_file", ["path", "content"])).kind == "file_write"
    assert classify(spec("create_or_update_file", ["owner", "repo", "path", "content"])) is None
    assert classify(spec("write_file", ["bucket", "path", "content"])) is None
    assert classify(spec("get_file_contents", ["filepath"], "Return a file in your vault.")) is None


def test_an_id_glued_to_its_object_makes_a_tool_server_specific():
    assert classify(spec("exec_command", ["command"])).kind == "run_command"
    assert classify(spec("exec_command", ["vmid", "command"])) is None  # Proxmox: inside a VM
    assert classify(spec("read_file", ["path", "nodeids"])) is None


def test_annotations_rule_out_a_contradicting_kind():
    assert classify(spec("write_file", ["path", "content"], annotations={"readOnlyHint": True})) is None
    assert classify(spec("fetch", ["url"], annotations={"destructiveHint": True})) is None


def test_web_search_needs_web_wording():
    assert classify(spec("search", ["query"], "Search the web with DuckDuckGo.")).kind == "web_search"
    assert classify(spec("search", ["query"], "Search for files in Google Drive")) is None
    assert classify(spec("search_nodes", ["query"], "Search the web of entities")) is None


def test_name_words_drop_the_server_prefix():
    assert name_words("brave_search__brave_web_search", "brave_search") == ["web", "search"]
    assert name_words("tavily_search", "tavily") == ["search"]
    assert name_words("search", "search") == ["search"]  # never down to nothing


def test_an_operation_id_with_double_underscores_is_no_gateway_name():
    """FastAPI's `read_page_pages__id__get` (GET /pages/{id}) is its own operationId, not `<server>__<tool>`."""
    op = "read_page_pages__id__get"
    assert server_of(op, "wiki", None, op) == "wiki" and server_of(op, "wiki") == "read_page_pages"
    assert name_words(op, "wiki", op) == ["read", "page", "pages", "id", "get"]
    assert name_words("wiki__read_page", "wiki") == ["read", "page"]
    assert server_of(op, "wiki", None, "read_page") == "read_page_pages"  # another operationId: a gateway name
