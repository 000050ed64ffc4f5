"""benchmarks/data/deps/make/subset_spec.py: a Swagger 2.0 spec cut by tag keeps its references' shape."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks" / "data" / "deps" / "make"))
from subset_spec import cut_by_tags  # noqa: E402


def swagger2() -> dict:
    ref = {"$ref": "#/definitions/Team"}
    return {
        "swagger": "2.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/teams/{id}": {
                "get": {
                    "tags": ["team"],
                    "parameters": [{"$ref": "#/parameters/TeamId"}],
                    "responses": {"200": {"schema": ref}},
                }
            },
            "/alerts": {"get": {"tags": ["alert"], "responses": {"200": {"schema": {"$ref": "#/definitions/Alert"}}}}},
        },
        "parameters": {"TeamId": {"name": "id", "in": "path", "required": True, "type": "string"}},
        "definitions": {
            "Team": {"type": "object", "properties": {"members": {"items": {"$ref": "#/definitions/User"}}}},
            "User": {"type": "object"},
            "Alert": {"type": "object"},
        },
    }


def test_a_swagger2_spec_is_cut_by_tag_with_the_definitions_it_references(tmp_path):
    (tmp_path / "spec.json").write_text(json.dumps(swagger2()))
    cut_by_tags({"k": "spec.json"}, {"k": {"team"}}, tmp_path, tmp_path, "corpus-test")
    out = json.loads((tmp_path / "k.json").read_text())
    assert list(out["paths"]) == ["/teams/{id}"]
    assert sorted(out["definitions"]) == ["Team", "User"]
    assert list(out["parameters"]) == ["TeamId"]
    assert "components" not in out
    assert out["paths"]["/teams/{id}"]["get"]["parameters"] == [{"$ref": "#/parameters/TeamId"}]
