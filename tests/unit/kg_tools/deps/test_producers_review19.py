"""Review fixes of the nineteenth session (s19rev): a reader of the one instance it is given, identifier fields
spelt with punctuation, the qualifier reading once per catalog. Small made-up specs, no names of real ones."""

from __future__ import annotations

import pytest

from kg_tools.deps.idlists import identifier_field
from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import described_tool as _tool
from tests.support.made_up_ops import op, wanted
from tests.support.made_up_ops import query_integer as _q

CRATE = {"type": "object", "title": "CrateDto", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}


@pytest.mark.parametrize("own", ["id", "crateId"])
def test_a_reader_of_one_instance_by_an_optional_query_id_is_no_source_of_it(own):
    """`GET /api/Crate?crateId=` -> one CrateDto (ASP.NET specs mark no query parameter required) holding its id as
    `id` or spelt as the consumer spells it (`crateId`; s20rev): it reads the crate it is given, by its schema, its
    path or its name; the listing of crates is the source."""
    crate = {**CRATE, "properties": {own: {"type": "integer"}, "name": {"type": "string"}}}
    tools = [
        op("get_api_Crate", "GET", "/api/Crate", [_q("crateId")], output_schema=crate),
        op("get_api_Crates", "GET", "/api/Crates", [], output_schema={"type": "array", "items": crate}),
        op("delete_api_Crate", "DELETE", "/api/Crate", [_q("crateId")]),
    ]
    _, _, producers = wanted(tools)[("delete_api_Crate", "crateId")]
    assert producers == {"get_api_Crates"}


def test_a_reader_of_one_instance_by_another_parameter_still_provides_it():
    """`GET /api/Crate/latest?shelfId=` -> one crate of a shelf: a source of a crate id."""
    tools = [
        op("get_api_Crate_latest", "GET", "/api/Crate/latest", [_q("shelfId")], output_schema=CRATE),
        op("delete_api_Crate", "DELETE", "/api/Crate", [_q("crateId")]),
    ]
    _, _, producers = wanted(tools)[("delete_api_Crate", "crateId")]
    assert "get_api_Crate_latest" in producers


def test_a_listing_filtered_by_an_optional_id_still_provides_it():
    """`GET /crates?crateId=` answering a paging envelope, an optional list or a bare object is no evidence of one
    crate: it stays the crates' listing."""
    envelope = {
        "type": "object",
        "properties": {"results": {"type": "array", "items": CRATE}, **{k: {"type": "integer"} for k in "abcdef"}},
    }
    for output in (envelope, {"anyOf": [{"type": "array", "items": CRATE}, {"type": "null"}]}, {"type": "object"}):
        tools = [
            op("browse_crates", "GET", "/crates", [_q("crateId")], output_schema=output),
            op("delete_crate", "DELETE", "/crates/{crateId}", [{**_q("crateId", True), "in": "path"}]),
        ]
        _, _, producers = wanted(tools)[("delete_crate", "crateId")]
        assert producers == {"browse_crates"}, output


def test_identifier_fields_spelt_with_punctuation():
    assert [identifier_field(k) for k in ("_id", "@id", "$id", "id_", "Id", "KEY", "names")] == [
        "id",
        "id",
        "id",
        "id",
        "id",
        "key",
        "name",
    ]
    assert identifier_field("crate_id") is None
    assert identifier_field(3) is None


def test_a_list_of_identifiers_with_an_underscored_id_is_read():
    """`{crate_keys: [{_id}]}` (a MongoDB-style field) was a KeyError in the offers of lists of identifiers."""
    item = {"type": "object", "properties": {"_id": {"type": "string"}}}
    schema = {"type": "object", "properties": {"crate_keys": {"type": "array", "items": item}}}
    tools = [
        op("list_crate_keys", "GET", "/crate-keys", [], output_schema=schema),
        op("delete_crate", "DELETE", "/crates/{crate_id}", [{**_q("crate_id", True), "in": "path"}]),
    ]
    candidate_groups(tools)  # no exception


def test_the_noun_before_the_inner_qualifier_is_read():
    """`formalCrateFormalName`: the qualifier `formal` also opens the name; the noun before the inner one is read."""
    p = {"name": "formalCrateFormalName", "type": "string", "description": "", "required": True}
    tools = [
        _tool("shelf_search", "Searches formal records of every crate.", []),
        _tool("shelf_list_crates", "Lists all crates with their names.", []),
        _tool("shelf_open", "Opens one crate.", [p]),
    ]
    _, groups = candidate_groups(tools)
    found = {(c.want.parameter, c.want.resources[0], c.producer.name) for g in groups for c in g}
    assert ("formalCrateFormalName", "crate", "shelf_list_crates") in found
