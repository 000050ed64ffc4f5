"""Wants and offers fixed for gold candidates the shipped trees scored low (kg_tools/deps/producers.py; ninth
session, "gold candidates that score low"). Small made-up specs and tool lists, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.offline import ToolInfo
from kg_tools.deps.producers import candidate_groups
from tests.support.made_up_ops import described_tool as _tool
from tests.support.made_up_ops import op, wanted


def _p(name: str, where: str | None, description: str = "", required: bool = True) -> dict:
    p = {"name": name, "type": "string", "description": description, "required": required}
    return {**p, "in": where} if where else p


def _boxes(*fields: str) -> dict:
    return {
        "type": "array",
        "items": {"type": "object", "title": "Box", "properties": {f: {"type": "string"} for f in fields}},
    }


def _shelf_ops(description: str) -> list[ToolInfo]:
    return [
        op("list_boxes", "GET", "/user/boxes", [], output_schema=_boxes("id", "name")),
        op("get_box", "GET", "/boxes/{box}", [_p("box", "path", description)], output_schema=_boxes("id", "name")),
    ]


def test_a_noun_described_as_one_identifier_of_itself_wants_that_identifier():
    """`{box}` "name of the box" holds a box's name, matched exactly to the lists' `[].name`; a plain description
    ("box to get") keeps the thing itself (`*`)."""
    named = wanted(_shelf_ops("name of the box"))
    assert named[("get_box", "box")][:2] == (["box"], "name")
    assert "list_boxes" in named[("get_box", "box")][2]
    _, groups = candidate_groups(_shelf_ops("name of the box"))
    (candidate,) = [c for g in groups for c in g if c.producer.name == "list_boxes"]
    assert candidate.offer is not None and candidate.offer.field == "name"
    assert wanted(_shelf_ops("box to get"))[("get_box", "box")][:2] == (["box"], "*")


def test_a_noun_described_as_an_identifier_of_another_thing_stays_the_thing_itself():
    """ "name of the shelf" for `{box}` says nothing about which identifier of a box it is."""
    assert wanted(_shelf_ops("name of the shelf"))[("get_box", "box")][:2] == (["box"], "*")


def test_a_name_without_a_verb_offers_the_noun_its_description_lists():
    """`my_boxes` "List boxes assigned to the current user" returns boxes (as `list_boxes` would), a candidate for a
    box id; a name without a verb whose description opens with another noun offers nothing by its name."""
    tools = [
        _tool("my_boxes", "List boxes assigned to the current user. Paginated.", [_p("page", None, required=False)]),
        _tool("my_settings", "Show the current user's preferences.", []),
        _tool("open_box", "Open one box.", [_p("box_id", None, "The box to open")]),
    ]
    candidates = wanted(tools)[("open_box", "box_id")]
    assert candidates[:2] == (["box"], "id")
    assert candidates[2] == {"my_boxes"}


def test_a_qualifier_in_the_plural_counts_as_the_producers_singular():
    """`get_discover_movies_genre_genreId` wants a genre of movies: `get_genres_movie` names that qualifier (its share
    is 1/2 of `discover movie`, as `movies` is a movie, not a "movy")."""
    genres = {"type": "object", "properties": {"genres": _boxes("id", "name")}}
    tools = [
        op("get_genres_movie", "GET", "/genres/movie", [], output_schema=genres),
        op("get_discover_movies_genre_genreId", "GET", "/discover/movies/genre/{genreId}", [_p("genreId", "path")]),
    ]
    _, groups = candidate_groups(tools)
    (candidate,) = [c for g in groups for c in g if c.producer.name == "get_genres_movie"]
    assert candidate.qualifier_share == 0.5
