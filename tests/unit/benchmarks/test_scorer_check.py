"""The retrieval side of choosing a scorer (benchmarks/scorer_check.py): which edges between a dev query's golden
tools a candidate scorer changes, offline."""

from __future__ import annotations

import json

from benchmarks import scorer_check
from kg_tools.deps.scoring import Scorer, default_scorer


def _tool(name, description, params=(), output=None):
    return {
        "name": name,
        "description": description,
        "parameters": [{"name": p, "type": "string", "description": p, "required": True} for p in params],
        **({"output_schema": output} if output else {}),
    }


LIST = {
    "type": "object",
    "properties": {
        "projects": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}
    },
}
TOOLS = [
    _tool("list_projects", "List the projects.", output=LIST),
    _tool("delete_project", "Delete a project.", ["project_id"]),
    _tool("get_weather", "The weather in a city.", ["city"]),
]
QUERIES = [
    {
        "user_query": "delete the old project",
        "golden_function_names": ["list_projects", "delete_project"],
        "split": "dev",
    },
    {"user_query": "weather in Oslo", "golden_function_names": ["get_weather"], "split": "test"},
]


def _catalog(tmp_path, monkeypatch):
    catalog, queries = tmp_path / "tiny.json", tmp_path / "tiny_queries.json"
    catalog.write_text(json.dumps(TOOLS))
    queries.write_text(json.dumps(QUERIES))
    monkeypatch.setattr(scorer_check, "CATALOGS", {"tiny": (catalog, queries)})


def _never() -> Scorer:
    """A scorer that accepts nothing (its threshold is above every probability)."""
    return Scorer((), 0.0, 0.1, threshold=1.01, second=0.5, per_parameter=3, hub_share=1.0, hub_min=8)


def test_a_scorer_that_drops_a_golden_edge_is_flagged(tmp_path, monkeypatch):
    _catalog(tmp_path, monkeypatch)
    shipped = default_scorer()
    same = scorer_check.compare("tiny", shipped, shipped, 0.5)
    assert same["changed"] == 0 and not same["lost"] and not same["gained"]
    assert same["golden"][0] == 1  # delete_project -> list_projects, both golden tools of the dev query
    dropped = scorer_check.compare("tiny", _never(), shipped, 0.5)
    assert dropped["edges"][1] == 0 and dropped["golden"] == [1, 0]
    assert dropped["lost"] == ["delete_project -> list_projects"]


def test_the_command_compares_a_scorer_file_with_the_shipped_one(tmp_path, monkeypatch, capsys):
    _catalog(tmp_path, monkeypatch)
    candidate = tmp_path / "candidate.json"
    candidate.write_text(json.dumps(_never().as_dict()))
    assert scorer_check.main([str(candidate), "-v"]) == 0
    out = capsys.readouterr().out
    assert "lost   delete_project -> list_projects" in out
    assert "golden edges differ on: tiny" in out
    assert "to others" in out
