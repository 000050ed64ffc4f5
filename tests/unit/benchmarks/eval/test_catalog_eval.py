"""read_catalog: a JSON lines file is our JSON catalog or, in the shape of one, an OpenAI tool list."""

import json

from benchmarks.eval.catalog_eval import read_catalog


def test_json_lines_of_functions_are_an_openai_tool_list(tmp_path):
    path = tmp_path / "trading.jsonl"
    schema = {"type": "dict", "properties": {"order_id": {"type": "integer"}}, "required": ["order_id"]}
    path.write_text(json.dumps({"name": "cancel_order", "parameters": schema}) + "\n")
    source = read_catalog(path, "trading")
    assert source.files == [str(path)]
    assert source.tools[0]["parameters"] == [
        {"name": "order_id", "type": "integer", "description": "", "required": True}
    ]


def test_json_lines_of_our_own_tools_stay_ours(tmp_path):
    path = tmp_path / "ours.jsonl"
    path.write_text(json.dumps({"name": "a", "parameters": [{"name": "x", "type": "string"}]}) + "\n")
    assert read_catalog(path, "ours").tools == [{"name": "a", "parameters": [{"name": "x", "type": "string"}]}]


def test_one_line_json_lines_and_json_lines_named_json(tmp_path):
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps({"name": "a", "parameters": [{"name": "x", "type": "string"}]}) + "\n")
    assert [t["name"] for t in read_catalog(one, "one").tools] == ["a"]
    assert [t["name"] for t in read_catalog(one, "one", "json").tools] == ["a"]
    two = tmp_path / "two.json"
    two.write_text("".join(json.dumps({"name": n, "parameters": {"type": "object"}}) + "\n" for n in "ab"))
    assert [t["name"] for t in read_catalog(two, "two").tools] == ["a", "b"]
