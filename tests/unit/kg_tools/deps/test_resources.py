"""Resource words: the rough English singular the resource matching uses."""

import pytest

from kg_tools.deps.resources import included_resources, singular, words


@pytest.mark.parametrize(
    ("plural", "one"),
    [
        ("playlists", "playlist"),
        ("repositories", "repository"),
        ("addresses", "address"),
        ("statuses", "status"),
        ("aliases", "alias"),
        ("alias", "alias"),
        ("canvases", "canvas"),
        ("analyses", "analysis"),
        ("releases", "release"),
        ("status", "status"),
        ("indices", "index"),
        ("movies", "movie"),
        ("cookies", "cookie"),
        ("series", "series"),
        ("categories", "category"),
        ("topics", "topic"),  # a plural in -ics is a plural (tenth session) ...
        ("epics", "epic"),
        ("metrics", "metric"),
        ("analytics", "analytics"),  # ... but for the -tics nouns that have no singular
        ("statistics", "statistics"),
        ("apis", "api"),  # plurals of nouns in -i (seventeenth session: Tyk's `listApis` for an `apiID`) ...
        ("emojis", "emoji"),
        ("basis", "basis"),  # ... beside the singulars in -is
        ("analysis", "analysis"),
        ("skus", "sku"),  # plurals of nouns in -u (twenty-fifth session: GoBox's `list_product_skus` for a `sku`) ...
        ("gpus", "gpu"),
        ("bonus", "bonus"),  # ... beside the singulars in -us
        ("sizes", "size"),  # -zes of a singular in -ze (DigitalOcean's `sizes_list` for a droplet's `size`) ...
        ("buzzes", "buzz"),  # ... not of one in -zz, -tz
        ("waltzes", "waltz"),
        ("quizzes", "quiz"),
        ("boxes", "box"),
        ("caches", "cache"),  # -ches of a singular in -che (Codemagic's `delete_cache` had no lister) ...
        ("branches", "branch"),  # ... not of one in -ch
    ],
)
def test_singular(plural, one):
    assert singular(plural) == one


@pytest.mark.parametrize(
    "description, resources",
    [
        ("Retrieves detailed information about a Discord server including channels and member count", ["channel"]),
        ("Get the workspace, with its projects and members", ["project", "member"]),
        ("Lists repositories including archived ones", []),
        ("Get a user including profile data", []),
    ],
)
def test_included_resources_are_plural_instances_inside_what_comes_back(description, resources):
    assert included_resources(description) == resources


@pytest.mark.parametrize(
    "text, expected",
    [
        ("getÑandúId", ["get", "nandu", "id"]),  # not cut at the accents, the camelCase split as for ASCII
        ("list_straßes", ["list", "strasses"]),
        ("pièce_id", ["piece", "id"]),
        ("ﬁle_id", ["file", "id"]),
        ("get_İstanbul", ["get", "istanbul"]),
        ("用户_id", ["id"]),  # another script is not read, as before
        ("get_widget", ["get", "widget"]),
    ],
)
def test_words_read_latin_letters_with_marks_as_the_letters_they_are_written_with(text, expected):
    assert words(text) == expected
