"""Tool and catalog names (issue 23, item 9) through the load, the API and an MCP server, against the real Neo4j: NFC stored, invisible names and look-alikes refused."""

from __future__ import annotations

import sys
import unicodedata
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from kg_tools.errors import CatalogError
from kg_tools.ingest import load_catalog
from kg_tools.tool_spec import (
    MAX_CATALOG_LENGTH,
)
from tests.support.cli_process import kg_tools_process
from tests.unit.kg_tools.test_names import CYRILLIC_CALENDAR

CAFE_NFC, CAFE_NFD = "caf\u00e9", "cafe\u0301"


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
