"""kg_tools/deps/resources.py: a "new" value names no owner, a capitalized name after "of" is no described resource
(twenty-fourth session, "the Args line as a parameter's description"). Made-up texts."""

from __future__ import annotations

from kg_tools.deps.resources import described_owner, described_resources


def test_a_new_name_is_the_value_to_set_not_a_name_of_news():
    assert described_owner("new name (empty = leave alone).", "name", "name", {"new"}) is None
    assert described_owner("The shelf name.", "name", "name", {"shelf"}) == "shelf"


def test_a_capitalized_name_after_of_is_the_product_searched():
    assert described_resources("Search all of Shelfly for boxes matching query.") == []
    assert described_resources("Returns a list of boxes.") == ["box"]
    assert described_resources("Get details of the shelf.") == ["shelf"]


def test_a_plural_written_capitalized_is_a_title_cased_resource_not_a_name():
    """s25rev: 42 descriptions of 8 dev catalogs say "fetch a list of Customers", "Returns a list of Addresses"
    (the catalog's own resources, title-cased); the names after "of" there (Reddit, Docker, Firecrawl) are singular."""
    assert described_resources("Returns a list of Boxes") == ["box"]
    assert described_resources("Get the version of Shelfly") == [] != described_resources("Get the version of shelfly")
