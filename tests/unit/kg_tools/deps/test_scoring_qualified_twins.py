"""A reader found by its name alone and tied with the reader of the bare resource is not kept beside it
(kg_tools/deps/scoring.py `without_qualified_twins`), a "from the <noun>" phrase names the bare one only, and a
want read as a field word alone (`name`) gets no reader named after it (kg_tools/deps/producers.py; twenty-first
session, "qualified siblings and field words"). Made-up tools."""

from __future__ import annotations

from kg_tools.deps.producers import Want, candidate_groups, name_index, named_after, prepare, tool_kind
from kg_tools.deps.scoring import Scorer, select
from tests.support.made_up_ops import described_tool as _tool
from tests.support.made_up_ops import required_string

SCORER = Scorer((), 0.0, 0.1, threshold=0.2, second=0.5, per_parameter=2, hub_share=1.0, hub_min=8)
TOOLS = [
    _tool("show_domains", "Shows domains.", []),
    _tool("show_dns_domains", "Shows DNS domains.", []),
    _tool("show_host", "Shows a host.", [required_string("domain", "The domain to read the host in.")]),
]


def _group(p: dict[str, float], named: bool = True) -> list:
    _, groups = candidate_groups(TOOLS)
    [group] = [g for g in groups if g and g[0].consumer.name == "show_host"]
    group = [c for c in group if c.producer.name in p]
    for c in group:
        c.probability = p[c.producer.name]
        c.offer = None if named else c.offer  # found by the name alone (Check Point's tools say nothing they return)
    return group


def test_a_named_reader_tied_with_the_bare_one_is_not_kept_beside_it():
    accepted, _ = select([_group({"show_domains": 0.4, "show_dns_domains": 0.4})], SCORER)
    assert [c.producer.name for c in accepted] == ["show_domains"]


def test_one_the_trees_tell_apart_or_found_by_an_offer_stays():
    accepted, _ = select([_group({"show_domains": 0.4, "show_dns_domains": 0.39})], SCORER)
    assert sorted(c.producer.name for c in accepted) == ["show_dns_domains", "show_domains"]
    accepted, _ = select([_group({"show_domains": 0.4, "show_dns_domains": 0.4}, named=False)], SCORER)
    assert sorted(c.producer.name for c in accepted) == ["show_dns_domains", "show_domains"]


def test_a_phrase_names_the_bare_reader_not_its_qualified_sibling():
    tools = TOOLS + [
        _tool(
            "show_rules",
            "Shows rules.",
            [required_string("domain_uid", "The domain to process, from the system domain")],
        ),
        _tool("show_zones", "Shows zones.", [required_string("zone_uid", "The zone, from the dns domain")]),
    ]
    fixed, _ = candidate_groups(tools)
    pairs = {(p.source, p.target) for p in fixed}
    assert ("show_rules", "show_domains") in pairs and ("show_rules", "show_dns_domains") not in pairs
    assert ("show_zones", "show_dns_domains") in pairs  # the phrase says `dns`: both stay named


def test_a_want_of_a_field_word_alone_has_no_reader_named_after_it():
    tools = prepare([_tool("list_label_names", "Lists label names.", []), _tool("list_uids", "Lists uids.", [])])
    for t in tools.values():
        t.kind = tool_kind(t)
    names = name_index(tools)
    assert named_after(Want("name", ["name"], "name", True), tools, names) == []
    assert named_after(Want("uid", ["uid"], "id", True), tools, names) == []
    assert named_after(Want("label_name", ["label"], "name", True), tools, names) == ["list_label_names"]
