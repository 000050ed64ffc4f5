"""A compound resource a description names after `of` ("ID of the rule group"): read by its head when the catalog
has both words' resources (docs/dependencies.md, "twenty-first session: a first contact with unseen MCP servers, and
compounds")."""

from __future__ import annotations

from kg_tools.deps.resources import compound_head, described_owner
from tests.support.made_up_ops import candidate_triples, required_string
from tests.support.made_up_ops import described_tool as _tool


def test_two_nouns_that_both_name_resources_name_the_second():
    assert compound_head(["rule", "group"], {"rule", "group"}) == "group"
    assert compound_head(["rule", "groups"], {"rule", "group"}) == "group"
    assert compound_head(["rule", "group"], {"group"}) is None  # the first names no resource here: a word of a name
    assert compound_head(["work", "package"], {"work"}) is None  # the second names none: the first is kept
    assert compound_head(["user", "to"], {"user", "to"}) is None
    assert compound_head(["rule"], {"rule"}) is None
    # an identifier or any thing after the noun is the noun's: "the display name", "the user IDs", "the event object"
    assert compound_head(["display", "name"], {"display", "name"}) is None
    assert compound_head(["user", "ids"], {"user", "ids"}) is None
    assert compound_head(["event", "object"], {"event", "object"}) is None
    assert compound_head(["coupon", "code"], {"coupon", "code"}) == "code"  # Klaviyo's coupon codes


def test_a_bare_id_described_by_a_compound_is_the_compound_s():
    known = {"rule", "group"}
    assert described_owner("ID of the rule group to update.", "id", "id", known) == "group"
    assert described_owner("IDs of the rule groups to delete.", "id", "ids", known) == "group"
    assert described_owner("ID of the rule to update.", "id", "id", known) == "rule"
    assert described_owner("ID of the rule group to update.", "id", "id") == "rule"  # no catalog: the first noun


def test_a_rule_group_is_read_from_the_rule_groups_not_the_rules():
    tools = [
        _tool("search_rules", "Search rules.", [required_string("filter", "FQL filter")]),
        _tool("search_rule_groups", "Search rule groups.", [required_string("filter", "FQL filter")]),
        _tool("update_rule_group", "Update a rule group.", [required_string("id", "ID of the rule group to update.")]),
        _tool("add_rule", "Add a rule.", [required_string("rulegroup_id", "ID of the rule group to add the rule to.")]),
        _tool("update_rule", "Update a rule.", [required_string("id", "ID of the rule to update.")]),
    ]
    triples = candidate_triples(tools)
    assert ("update_rule_group", "id", "search_rule_groups") in triples
    assert ("update_rule_group", "id", "search_rules") not in triples
    assert ("add_rule", "rulegroup_id", "search_rule_groups") in triples
    assert ("add_rule", "rulegroup_id", "search_rules") not in triples
    assert ("update_rule", "id", "search_rules") in triples
