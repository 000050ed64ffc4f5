"""A producer found by its description that names another kind of the wanted resource (kg_tools/deps/producers.py
`_described_other_kind`; eighteenth session, "wrong edges on the spent servers"). Made-up tools, no real names."""

from __future__ import annotations

from tests.support.made_up_ops import candidate_triples as _candidates
from tests.support.made_up_ops import described_tool as _tool
from tests.support.made_up_ops import required_string as _p


def test_another_kind_of_a_qualified_resource_is_no_provider():
    """`boxSetName` wants a box set: `shelf_list_colour_sets` lists colour sets (a kind its name puts before the
    resource), `shelf_list_box_sets` box sets."""
    tools = [
        _tool("shelf_list_colour_sets", "Lists all colour sets defined in the store, returning their names.", []),
        _tool("shelf_list_box_sets", "Lists all box sets defined in the store, returning their names.", []),
        _tool("shelf_open", "Opens one record of a box set.", [_p("boxSetName", "Box set name")]),
    ]
    found = _candidates(tools)
    assert ("shelf_open", "boxSetName", "shelf_list_box_sets") in found
    assert ("shelf_open", "boxSetName", "shelf_list_colour_sets") not in found


def test_a_word_the_producer_takes_as_a_parameter_is_a_scope_not_a_kind():
    """`shelf_list_store_users(store_id)` lists a store's users: an `ownerUserId` still comes from it."""
    tools = [
        _tool("shelf_list_store_users", "Lists the users of a store.", [_p("store_id", "Store ID")]),
        _tool("shelf_assign", "Assigns a shelf to its owner.", [_p("ownerUserId", "User ID of the owner")]),
    ]
    assert ("shelf_assign", "ownerUserId", "shelf_list_store_users") in _candidates(tools)
