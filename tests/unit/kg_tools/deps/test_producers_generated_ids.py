"""A value the tool generates when the caller leaves it out ("if not provided, a new one will be generated") names
the new instance, not one another tool returns (kg_tools/deps/producers.py `generated_if_omitted`;
docs/dependencies.md, twenty-fifth session: leads from the fresh specs just spent). Made-up tools."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import generated_if_omitted, parameter_wants, prepare

KNOWN = {"run", "workflow", "folder"}


def _tool(name: str, parameter: dict, schema: dict):
    raw = {
        "name": name,
        "description": "Start a run of a workflow.",
        "parameters": [parameter],
        "input_schema": {"type": "object", "properties": {parameter["name"]: schema}},
    }
    return prepare([ToolInfo.from_raw(raw)])[name]


def _parameter(name: str, description: str) -> dict:
    return {"name": name, "type": "string", "description": description, "required": False}


def test_an_id_generated_when_omitted_wants_no_producer():
    """`run_id` wants a run until its description says the tool generates one; both word orders are read."""
    plain = _parameter("run_id", "The run's ID.")
    want = parameter_wants(_tool("start_workflow", plain, {"type": "string"}), plain, KNOWN)
    assert want and want.resources == ["run"]
    for text in ("Optional ID for the run, if not provided a new one will be generated", "Auto-generated if omitted."):
        p = _parameter("run_id", text)
        assert parameter_wants(_tool("start_workflow", p, {"type": "string"}), p, KNOWN) is None


def test_the_description_of_a_referring_schema_member_is_read():
    """An OpenAPI property that refers to a shared schema keeps its own description in an `allOf` member."""
    p = _parameter("run_id", "")
    schema = {
        "allOf": [{"type": "string", "description": "A run's ID."}, {"description": "If omitted, one is generated."}]
    }
    assert generated_if_omitted(_tool("start_workflow", p, schema), p)


def test_a_new_instance_created_when_omitted_is_still_a_reference():
    """A folder "created if not provided" is an existing one when given; a default is no generation either."""
    for text in ("The folder. If not provided, a new folder is created.", "If omitted, the default folder is used."):
        p = _parameter("folder_id", text)
        assert not generated_if_omitted(_tool("save_report", p, {"type": "string"}), p)
        assert parameter_wants(_tool("save_report", p, {"type": "string"}), p, KNOWN)
