"""Tool and catalog names (issue 23, item 9): Unicode NFC, no invisible or bidi-control characters,
look-alike names reported, catalog names checked in one place for every path (CLI, API, an MCP server's
name)."""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from kg_tools.catalog import (
    CATALOG_NAME_PATTERN,
    MAX_CATALOG_LENGTH,
    check_catalog_name,
    confusable_groups,
    skeleton,
    validate_catalog,
)
from kg_tools.errors import CatalogError
from kg_tools.ingest import load_catalog
from tests.cli_process import kg_tools_process

CAFE_NFC, CAFE_NFD = "caf\u00e9", "cafe\u0301"
CYRILLIC_CALENDAR = "\u0441alendar"  # Cyrillic es + 'alendar'


@pytest.mark.parametrize(
    "name, message",
    [
        ("\u200b", "invisible character U+200B (ZERO WIDTH SPACE)"),
        ("get\u202eweather", "invisible character U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("send\u2066_mail\u2069", "U+2066"),
        ("a\u00adb", "U+00AD (SOFT HYPHEN)"),
        ("\u3164", "U+3164"),  # Hangul filler: a "letter" that shows nothing
        ("x\u200dy", "U+200D"),
        ("tool\x00", "control character U+0000"),
    ],
)
def test_invisible_and_control_characters_are_refused(name, message):
    with pytest.raises(CatalogError, match=re.escape(message)):
        validate_catalog([{"name": name}])
    with pytest.raises(CatalogError, match="U\\+"):  # also as a dependency target
        validate_catalog(
            [
                {"name": "a"},
                {"name": "b", "depends_on": [{"name": f"a{name}", "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"}]},
            ]
        )


def test_names_are_nfc_so_nfd_duplicates_are_duplicates():
    tool = validate_catalog([{"name": CAFE_NFD}]).specs[0]
    assert tool.name == CAFE_NFC
    with pytest.raises(CatalogError, match="duplicate tool name 'café' \\(2 entries"):
        validate_catalog([{"name": CAFE_NFC}, {"name": CAFE_NFD}])
    # a dependency written in NFD finds its NFC target
    edges = validate_catalog(
        [
            {"name": CAFE_NFC},
            {"name": "order", "depends_on": [{"name": CAFE_NFD, "dependence_type": "TOOL_DIRECTLY_DEPENDS_ON"}]},
        ]
    ).edges
    assert [(e.source, e.target) for e in edges] == [("order", CAFE_NFC)]


def test_look_alike_names_are_reported():
    assert skeleton(CYRILLIC_CALENDAR) == "calendar" and skeleton("ｃａｌｅｎｄａｒ") == "calendar"
    assert skeleton(CAFE_NFC) == CAFE_NFC  # an accent is visible: café is not cafe
    assert confusable_groups(["calendar", CYRILLIC_CALENDAR, "cafe", CAFE_NFC, "tool1", "tooll"]) == [
        ["calendar", CYRILLIC_CALENDAR]
    ]
    with pytest.raises(
        CatalogError,
        match=r"tool names that look alike: 'calendar' \(calendar\), "
        r"'сalendar' \(\\u0441alendar\)",
    ):
        validate_catalog([{"name": "calendar"}, {"name": CYRILLIC_CALENDAR}])
    # against tools already in the graph: a warning naming the existing tool
    report = validate_catalog([{"name": CYRILLIC_CALENDAR}], known_names={"calendar", "other"}).report
    assert report.warnings == [f"tool name {CYRILLIC_CALENDAR!r} looks like the existing tool 'calendar'"]


@pytest.mark.parametrize(
    "name, message",
    [
        ("shop\x00", "control character U+0000"),
        ("shop\nevil", "control character U+000A"),
        ("s" * (MAX_CATALOG_LENGTH + 1), f"longer than {MAX_CATALOG_LENGTH} characters"),
        ("\u200b", "invisible character U+200B"),
        ("  ", "empty"),
    ],
)
def test_catalog_names_are_checked(name, message):
    with pytest.raises(CatalogError, match=re.escape(message)):
        check_catalog_name(name)
    assert check_catalog_name(f" {CAFE_NFD} ") == CAFE_NFC


def test_the_api_schema_states_the_name_rules():
    assert re.fullmatch(CATALOG_NAME_PATTERN, "shop") and not re.fullmatch(CATALOG_NAME_PATTERN, "a\u200bb")
    from kg_tools.settings import Settings

    schema = TestClient(create_app(Settings(api_allowed_hosts=["testserver"]))).get("/openapi.json").json()
    put = {p["name"]: p for p in schema["paths"]["/v1/tools/{name}"]["put"]["parameters"]}
    assert "\\u200b" in put["name"]["schema"]["pattern"]
    assert json.dumps(CATALOG_NAME_PATTERN) in json.dumps(put["catalog"])


# -- through the load path and the API (real Neo4j) -------------------------------------------------

BAD_NAME_SERVER = """
from mcp.server.mcpserver import MCPServer
server = MCPServer({name!r})

@server.tool()
def ping() -> str:
    \"\"\"Answer pong.\"\"\"
    return "pong"

server.run()
"""


@pytest.mark.integration
@pytest.mark.parametrize(
    "server_name, message",
    [
        ("notes\nDROP", "control character U+000A"),
        ("n" * 250, f"longer than {MAX_CATALOG_LENGTH} characters"),
    ],
)
def test_a_catalog_name_from_an_mcp_server_is_checked(graph, empty_graph, settings, tmp_path, server_name, message):
    script = tmp_path / "server.py"
    script.write_text(BAD_NAME_SERVER.format(name=server_name))
    done = kg_tools_process("load", "mcp", "--", sys.executable, str(script), neo4j=settings, timeout=180)
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("error: invalid catalog name") and message in last, done.stderr
    assert graph.read("MATCH (t:Tool) RETURN count(t) AS n")[0]["n"] == 0


@pytest.mark.integration
def test_load_and_api_store_nfc_and_refuse_invisible_names(graph, embedder, empty_graph, settings):
    load_catalog(graph, embedder, [{"name": CAFE_NFD, "description": "coffee"}], "shop", log=lambda *_: None)
    assert [r["name"] for r in graph.read("MATCH (t:Tool) RETURN t.name AS name")] == [CAFE_NFC]
    with pytest.raises(CatalogError, match="invalid catalog name"):
        load_catalog(graph, embedder, [{"name": "x"}], "shop\x00", log=lambda *_: None)
    with TestClient(create_app(settings, graph=graph, embedder=embedder)) as client:
        assert client.get(f"/v1/tools/{quote(CAFE_NFD)}").json()["name"] == CAFE_NFC  # looked up in NFC
        put = client.put(f"/v1/tools/{quote(CAFE_NFD)}", json={"name": CAFE_NFC, "description": "coffee, hot"})
        assert put.status_code == 200, put.text
        zero_width = client.put(f"/v1/tools/{quote(chr(0x200B))}", json={"name": "\u200b"})
        assert zero_width.status_code == 422
        look_alike = client.put(f"/v1/tools/{quote(CYRILLIC_CALENDAR)}", json={"name": CYRILLIC_CALENDAR})
        assert look_alike.status_code == 201  # alone it is a name like any other ...
        both = client.post("/v1/catalogs/cal/import", json=[{"name": "calendar"}, {"name": CYRILLIC_CALENDAR}])
        assert both.status_code == 422 and "look alike" in both.json()["detail"]  # ... but not beside its twin
        twin = load_catalog(graph, embedder, [{"name": "calendar"}], "api", log=lambda *_: None)  # its catalog
        assert twin.warnings == [f"tool name 'calendar' looks like the existing tool {CYRILLIC_CALENDAR!r}"]
        bad_catalog = client.post(f"/v1/catalogs/{quote('a' + chr(0x202E) + 'b')}/import", json=[{"name": "y"}])
        assert bad_catalog.status_code == 422
    assert unicodedata.is_normalized(
        "NFC", graph.read("MATCH (t:Tool {name: $n}) RETURN t.name AS n", n=CAFE_NFC)[0]["n"]
    )


@pytest.mark.integration
@pytest.mark.parametrize(
    "twin",
    [
        "p\u0430yp\u0430l_send",  # Cyrillic a
        "\uff50\uff41\uff59\uff50\uff41\uff4c_send",  # fullwidth
        "\U0001d5c9\U0001d5ba\U0001d5d2\U0001d5c9\U0001d5ba\U0001d5c5_send",  # mathematical sans-serif
    ],
)
def test_a_put_refuses_a_look_alike_of_a_tool_of_its_catalog_as_an_import_does(
    graph, embedder, empty_graph, settings, twin
):
    """A PUT skipped the look-alike rule: `paypal_send` and its twins were all accepted in one catalog."""
    with TestClient(create_app(settings, graph=graph, embedder=embedder)) as client:
        first = client.put("/v1/tools/paypal_send?catalog=pay", json={"name": "paypal_send", "description": "pay"})
        assert first.status_code == 201, first.text
        imported = client.post("/v1/catalogs/pay/import", json=[{"name": "paypal_send"}, {"name": twin}])
        put = client.put(f"/v1/tools/{quote(twin)}?catalog=pay", json={"name": twin, "description": "pay"})
        assert (put.status_code, put.json()["error"]) == (422, "invalid_tool"), put.text
        assert put.json()["detail"] == imported.json()["detail"]  # the import's error, word for word
        assert put.json()["detail"].startswith(
            "catalog rejected: 1 problem(s), nothing written: tool names that look alike"
        )
        elsewhere = client.put(
            f"/v1/tools/{quote(twin)}", json={"name": twin, "description": "pay"}
        )  # default catalog: its own
        assert elsewhere.status_code == 201, elsewhere.text
        again = client.put("/v1/tools/paypal_send", json={"name": "paypal_send", "description": "pay, again"})
        assert again.status_code == 200, again.text  # replacing a tool is not a look-alike of itself
    names = {r["name"] for r in graph.read("MATCH (t:Tool {catalog: 'pay'}) RETURN t.name AS name")}
    assert names == {"paypal_send"}
