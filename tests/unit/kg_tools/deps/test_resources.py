"""Resource words: the rough English singular the resource matching uses."""

import pytest

from kg_tools.deps.resources import singular


@pytest.mark.parametrize(
    ("plural", "one"),
    [
        ("playlists", "playlist"),
        ("repositories", "repository"),
        ("addresses", "address"),
        ("statuses", "status"),
        ("aliases", "alias"),
        ("releases", "release"),
        ("status", "status"),
        ("indices", "index"),
        ("movies", "movie"),
        ("cookies", "cookie"),
        ("series", "series"),
        ("categories", "category"),
    ],
)
def test_singular(plural, one):
    assert singular(plural) == one
