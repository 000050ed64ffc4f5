"""Tool and catalog names (issue 23, item 9): Unicode NFC, no invisible or bidi-control characters,
look-alike names reported, catalog names checked in one place for every path (CLI, API, an MCP server's
name)."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from kg_tools.api.app import create_app
from kg_tools.errors import CatalogError
from kg_tools.settings import Settings
from kg_tools.tool_spec import (
    CATALOG_NAME_PATTERN,
    MAX_CATALOG_LENGTH,
    check_catalog_name,
    confusable_groups,
    skeleton,
    validate_catalog,
)

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

    schema = TestClient(create_app(Settings(api_allowed_hosts=["testserver"]))).get("/openapi.json").json()
    put = {p["name"]: p for p in schema["paths"]["/v1/tools/{name}"]["put"]["parameters"]}
    assert "\\u200b" in put["name"]["schema"]["pattern"]
    assert json.dumps(CATALOG_NAME_PATTERN) in json.dumps(put["catalog"])


# -- through the load path and the API (real Neo4j) -------------------------------------------------
