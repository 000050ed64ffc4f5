"""Outputs that list nothing but identifiers (kg_tools/deps/idlists.py). Made-up schemas."""

from __future__ import annotations

from kg_tools.deps.idlists import IdList, identifier_list, listed_identifier

STRINGS = {"type": "array", "items": {"type": "string"}}
PAIRS = {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}, "name": {}}}}


def test_an_array_of_strings_at_the_top():
    assert identifier_list(STRINGS) == IdList("[]", "", ())


def test_an_enum_of_strings_is_a_choice_not_a_list_of_identifiers():
    assert identifier_list({"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}) is None


def test_objects_of_identifiers_only_in_an_envelope_beside_paging():
    schema = {"type": "object", "properties": {"crates": PAIRS, "total": {"type": "integer"}}}
    assert identifier_list(schema) == IdList("crates[]", "crates", ("id", "name"))


def test_two_envelopes_down():
    keys = {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"}}}}
    inner = {"type": "object", "properties": {"crate_keys": keys}}
    schema = {"type": "object", "properties": {"result": inner, "status": {"type": "string"}}}
    assert identifier_list(schema) == IdList("result.crate_keys[]", "crate_keys", ("key",))


def test_objects_with_more_than_identifiers_are_summaries():
    items = {"type": "object", "properties": {"id": {"type": "string"}, "color": {"type": "string"}}}
    assert identifier_list({"type": "array", "items": items}) is None


def test_an_instance_holding_one_list_is_no_envelope():
    schema = {"type": "object", "properties": {"id": {"type": "string"}, "crates": PAIRS}}
    assert identifier_list(schema) is None


def test_two_lists_hold_no_one_list_of_identifiers():
    assert identifier_list({"type": "object", "properties": {"data": PAIRS, "included": PAIRS}}) is None


def test_a_plural_identifier_word_after_the_resource_names_both():
    assert listed_identifier(["crate", "keys"]) == ("crate", "key")
    assert listed_identifier(["crate", "names"]) == ("crate", "name")
    assert listed_identifier(["keys"]) is None
    assert listed_identifier(["crates"]) is None
