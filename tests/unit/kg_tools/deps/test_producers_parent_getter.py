"""The parent's getter holds the child (kg_tools/deps/parents.py, eighteenth session). Small made-up specs, no names
of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.parents import _inner_paths
from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import listing, op

PARENT = {"type": "object", "properties": {"id": {"type": "string"}, **listing("badges", "badge")["properties"]}}
ENVELOPED = {"type": "object", "properties": {"guild": PARENT}}


def _in(name: str) -> dict:
    return {"name": name, "type": "string", "description": "", "required": True, "in": "path"}


def _guild(parent: dict = PARENT, *extra: ToolInfo) -> list[ToolInfo]:
    return [
        op("getGuild", "GET", "/guilds/{guildId}", [_in("guildId")], output_schema=parent),
        op("updateBadge", "PUT", "/guilds/{guildId}/badges/{badgeId}", [_in("guildId"), _in("badgeId")]),
        *extra,
    ]


def _parent_edges(tools: list[ToolInfo]) -> set[tuple[str, str, str | None]]:
    fixed, _ = candidate_groups(tools)
    return {(p.source, p.target, p.parameter_name) for p in fixed if "GET of the parent" in p.reason}


def test_the_parents_getter_whose_output_holds_the_children_gives_the_childs_id():
    assert _parent_edges(_guild()) == {("updateBadge", "getGuild", "badgeId")}


def test_the_children_may_sit_in_an_envelope():
    assert _parent_edges(_guild(ENVELOPED)) == {("updateBadge", "getGuild", "badgeId")}


def test_an_output_without_the_children_gives_nothing():
    assert _parent_edges(_guild({"type": "object", "properties": {"id": {"type": "string"}}})) == set()


def test_a_listing_of_the_children_is_their_provider_instead():
    listed = op("listBadges", "GET", "/guilds/{guildId}/badges", [_in("guildId")], output_schema=listing("items", "x"))
    assert _parent_edges(_guild(PARENT, listed)) == set()


def test_a_child_with_collections_of_its_own_is_left_to_its_readers():
    below = op("getBadgeHolders", "GET", "/guilds/{guildId}/badges/{badgeId}/holders", [_in("guildId"), _in("badgeId")])
    assert ("updateBadge", "getGuild", "badgeId") not in _parent_edges(_guild(PARENT, below))


def test_a_create_given_its_own_id_names_the_new_child():
    make = op("createBadgeWithId", "POST", "/guilds/{guildId}/badges/{badgeId}", [_in("guildId"), _in("badgeId")])
    assert ("createBadgeWithId", "getGuild", "badgeId") not in _parent_edges(_guild(PARENT, make))


def test_the_paths_operations_go_on_below_are_read_once():
    """`_inner_paths` (eighteenth session, review: each consumer scanned every path, 2,400 operations 4 s): the
    proper prefixes of each path of the index, a collection's any-parent key (`*badges`) none."""
    paths = {("GET", "/guilds/{}/badges/{}/icon"): ["getIcon"], ("GET", "*badges"): ["listBadges"]}
    assert _inner_paths(paths) == {"", "/guilds", "/guilds/{}", "/guilds/{}/badges", "/guilds/{}/badges/{}"}
