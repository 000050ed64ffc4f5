"""Path parameters named by an abbreviation or by a plain noun (kg_tools/deps/producers.py, eighth session). Small
made-up specs, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import offer_index, prepare, set_wants, tool_kind
from tests.support.made_up_ops import op, wanted

KEYS = {"type": "object", "properties": {"keys": {"type": "array", "items": {"title": "key", "type": "object"}}}}


def _in(name: str, where: str, description: str = "") -> dict:
    return {"name": name, "type": "string", "description": description, "required": True, "in": where}


def _vault() -> list[ToolInfo]:
    ring = _in("set", "path", "Key Set ID")
    return [
        op("getKeyRing", "GET", "/vault/keys/{set}", [ring], output_schema=KEYS),
        op("getVaultKey", "GET", "/vault/keys/{set}/{kid}", [ring, _in("kid", "path", "Key ID")]),
        op("putVaultKey", "PUT", "/vault/keys/{set}", [ring, _in("kid", "body", "Key ID")]),
        op("listTrays", "GET", "/trays", [], output_schema=KEYS),
    ]


def test_a_path_parameter_that_its_description_calls_its_own_nouns_id_names_that_noun():
    """`/vault/keys/{set}` with "Key Set ID" (a word schema titles drop): the id of a set, not of a key (the segment
    before it); so no list of keys is a candidate for it."""
    tools = prepare(_vault())
    for t in tools.values():
        t.kind = tool_kind(t)
    set_wants(tools, set(offer_index(tools)))
    wants = {w.parameter: (w.resources, w.field) for w in tools["getVaultKey"].wants}
    assert wants["set"] == (["set"], "id")
    assert ("getVaultKey", "set") not in wanted(_vault())
