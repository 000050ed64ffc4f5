"""Readers whose output lists nothing but identifiers (kg_tools/deps/idlists.py; producers' offers, the selection in
scoring.py). Small made-up specs, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.producers import Tool, Want, candidate_groups, prepare, tool_kind, tool_offers
from kg_tools.deps.resources import Offer, catalog_names
from kg_tools.deps.scoring import Candidate, default_scorer, select
from tests.support.made_up_ops import op

STRINGS = {"type": "array", "items": {"type": "string"}}


def _in(name: str) -> dict:
    return {"name": name, "type": "string", "description": "", "required": True, "in": "path"}


def _offers(tools, name: str) -> set[tuple[str, str, str, bool]]:
    with catalog_names(tools):
        prepared = prepare(tools)
        tool = prepared[name]
        tool.kind = tool_kind(tool)
        return {(o.resource, o.field, o.path, o.listed) for o in tool_offers(tool)}


def test_a_collection_named_by_identifiers_lists_the_resource_before_them():
    tools = [
        op("getCrateKeys", "GET", "/v1/crate-keys", [], output_schema=STRINGS),
        op("getCrate", "GET", "/v1/crates/{id}", [_in("id")]),
    ]
    assert ("crate", "key", "[]", True) in _offers(tools, "getCrateKeys")


def test_an_enveloped_list_of_identifier_pairs_names_its_resource_not_a_name():
    pairs = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}
    schema = {"type": "object", "properties": {"crates": {"type": "array", "items": pairs}}}
    tools = [
        op("getCrateNames", "GET", "/v1/crate-names", [], output_schema=schema),
        op("getCrate", "GET", "/v1/crates/{id}", [_in("id")]),
    ]
    offers = _offers(tools, "getCrateNames")
    assert ("crate", "id", "crates[].id", True) in offers
    assert not any(resource == "name" for resource, *_ in offers)  # `crate-names` is no resource `name`


def test_an_array_named_by_identifiers_offers_them_as_its_resources():
    item = {"type": "object", "title": "CrateKeyDescription", "properties": {"key": {"type": "string"}}}
    inner = {"type": "object", "properties": {"crate_keys": {"type": "array", "items": item}}}
    schema = {"type": "object", "properties": {"result": inner, "status": {"type": "string"}}}
    tools = [
        op("list_crate_keys", "GET", "/stores/{store}/crates", [_in("store")], output_schema=schema),
        op("get_crate", "GET", "/stores/{store}/crates/{crate_id}", [_in("store"), _in("crate_id")]),
    ]
    assert _offers(tools, "list_crate_keys") >= {("crate", "key", "result.crate_keys[].key", True)}


def test_a_list_of_other_identifiers_is_no_candidate_by_its_name():
    """`list_crate_keys` lists crate keys: no source of a `crate_id`, though its name says crate."""
    item = {"type": "object", "properties": {"key": {"type": "string"}}}
    schema = {"type": "object", "properties": {"crate_keys": {"type": "array", "items": item}}}
    tools = [
        op("list_crate_keys", "GET", "/stores/{store}/crates", [_in("store")], output_schema=schema),
        op("snapshot_crate", "POST", "/stores/{store}/crates/{crate_id}/snapshots", [_in("store"), _in("crate_id")]),
        op("get_contents", "GET", "/stores/{store}/contents", [_in("store"), {**_in("crate_key"), "in": "query"}]),
    ]
    _, groups = candidate_groups(tools)
    producers = {(g[0].want.parameter, c.producer.name) for g in groups if g for c in g}
    assert ("crate_id", "list_crate_keys") not in producers
    assert ("crate_key", "list_crate_keys") in producers


def test_a_listing_of_ids_not_named_by_them_is_not_marked():
    schema = {"type": "object", "properties": {"data": {"type": "array", "items": {"properties": {"id": {}}}}}}
    tools = [op("listCrates", "GET", "/crates", [], output_schema=schema)]
    assert _offers(tools, "listCrates") == {("crate", "id", "data[].id", False)}


def test_a_list_of_guessed_names_is_not_marked():
    tools = [op("listRegions", "GET", "/regions", [], output_schema=STRINGS)]
    assert _offers(tools, "listRegions") == {("region", "name", "[]", False)}


def _candidate(producer: str, probability: float, offer: Offer | None) -> Candidate:
    consumer = Tool("getCrate", "", [])
    c = Candidate(consumer, Want("id", ["crate"], "id", True), Tool(producer, "", []), offer, resource_in_name=True)
    c.probability = probability
    return c


def test_the_listing_of_identifiers_is_kept_whatever_the_best_ones_share():
    listed = Offer("getCrateNames", "crate", "id", "crates[].id", True, "schema", listed=True)
    group = [
        _candidate("listCrates", 0.99, None),
        _candidate("searchCrates", 0.9, None),
        _candidate("getCrateNames", 0.25, listed),
    ]
    kept = {c.producer.name for c in select([group], default_scorer())[0]}
    assert kept == {"listCrates", "searchCrates", "getCrateNames"}


def test_below_the_threshold_or_unmarked_it_is_cut_as_before():
    scorer = default_scorer()
    low = Offer("getCrateNames", "crate", "id", "crates[].id", True, "schema", listed=True)
    plain = Offer("getCrateNames", "crate", "id", "crates[].id", True, "schema")
    for offer, p in ((low, scorer.threshold / 2), (plain, 0.25)):
        group = [_candidate("listCrates", 0.99, None), _candidate("getCrateNames", p, offer)]
        assert {c.producer.name for c in select([group], scorer)[0]} == {"listCrates"}
