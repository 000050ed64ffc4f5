"""A top-level parameter declared file contents (`format: binary`, or an array of them) wants no instance: Finix's
`POST /disputes/{dispute_id}/evidence` uploads `file`, the bytes, not the id `GET /files` lists
(kg_tools/deps/producers.py `_gives_contents`; docs/dependencies.md, twenty-fifth session: a first contact with unseen
specs). Small made-up operations."""

from __future__ import annotations

from tests.support.made_up_ops import op, wanted

FILES = {
    "type": "object",
    "properties": {"files": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}},
}


def _wants(schema: dict) -> dict:
    """The wants of `uploadEvidence(dispute_id, file)` when `file`'s schema is `schema`."""
    tools = [
        op("listFiles", "GET", "/files", [], output_schema=FILES),
        op(
            "uploadEvidence",
            "POST",
            "/disputes/{dispute_id}/evidence",
            [
                {"name": "dispute_id", "type": "string", "required": True, "in": "path"},
                {"name": "file", "type": "string", "required": False, "in": "body"},
            ],
            input_schema={
                "type": "object",
                "properties": {"dispute_id": {"type": "string"}, "file": schema},
                "required": ["dispute_id"],
            },
        ),
    ]
    return wanted(tools)


def test_binary_contents_want_no_file():
    assert ("uploadEvidence", "file") not in _wants({"type": "string", "format": "binary"})
    assert ("uploadEvidence", "file") not in _wants({"type": "array", "items": {"type": "string", "format": "binary"}})


def test_a_file_id_still_wants_a_file():
    assert "listFiles" in _wants({"type": "string", "description": "ID of the file."})[("uploadEvidence", "file")][2]
