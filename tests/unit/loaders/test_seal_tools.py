"""The Seal-Tools loader: schema mapping (no Neo4j needed), on the real files when present."""

from __future__ import annotations

import json

import pytest

from kg_tools.errors import CatalogError
from kg_tools.loaders import seal_tools


def test_tool_entry_maps_the_schema():
    raw = {
        "api_name": "getFilmInfo",
        "api_description": "Film details",
        "field": "Entertainment/Film",
        "parameters": {
            "film_name": {"type": "str", "description": "Name"},
            "year": {"type": "int", "description": "Y"},
        },
        "required": ["film_name"],
        "responses": {"director": {"type": "str", "description": "D"}},
    }
    entry = seal_tools.tool_entry(raw, 1)
    assert entry["name"] == "getFilmInfo" and entry["description"] == "Film details"
    assert entry["parameters"] == [
        {"name": "film_name", "type": "str", "description": "Name", "required": True},
        {"name": "year", "type": "int", "description": "Y", "required": False},
    ]
    assert entry["depends_on"] == [] and entry["field"] == "Entertainment/Film" and "director" in entry["responses"]
    with pytest.raises(CatalogError, match="unknown parameters"):
        seal_tools.tool_entry({**raw, "required": ["nope"]}, 3)
    with pytest.raises(CatalogError, match="api_name"):
        seal_tools.tool_entry({"api_description": "x"}, 4)


def test_malformed_line_is_reported(tmp_path):
    (tmp_path / "tool.jsonl").write_text(json.dumps({"api_name": "a", "parameters": {}, "required": []}) + "\n{oops\n")
    with pytest.raises(CatalogError, match="malformed"):
        seal_tools.load(tmp_path)
