"""The default ordering levers (kg_tools/retrieval/ordering.py, supplied.py, places.py): pure, no database."""

import json
import math
import re

from kg_tools.retrieval import ordering, places
from kg_tools.retrieval.context import Candidate
from kg_tools.retrieval.supplied import supplied_parameters


def _params(*names, description=""):
    return [(n, description) for n in names]


def test_supplied_values_are_tied_to_parameter_names():
    params = _params("email_address", "location", "year", "delivery_time", "session_id", "country_code")
    assert supplied_parameters("email my spot to ann.lee@example.org", params) == {"email_address"}
    assert supplied_parameters("the commute time in Japan for 2020", params) == {"year", "location"}
    assert supplied_parameters("deliver it at 7:45 pm", params) == {"delivery_time"}
    # relative dates and times are not values; a session id never comes from the user
    assert supplied_parameters("last year, tomorrow evening, session 4411", params) == set()


def test_measures_amounts_quoted_strings_ids_and_named_numbers():
    assert supplied_parameters("my 85 m2 flat", _params("property_size_m2", "location")) == {"property_size_m2"}
    assert supplied_parameters("I weigh 72 kg and walked 11,000 steps", _params("weight_kg", "daily_steps")) == {
        "weight_kg",
        "daily_steps",
    }
    assert supplied_parameters("it is valued at $450,000", _params("property_value")) == {"property_value"}
    assert supplied_parameters('play "Project Hail Mary"', _params("book_name", "session_id")) == {"book_name"}
    assert supplied_parameters("where is order #A7F33?", _params("order_id")) == {"order_id"}
    assert supplied_parameters("EPS is 6.13, what is the P/E?", _params("eps", "stock_price")) == {"eps"}
    assert supplied_parameters("what is the P/E of Nike?", _params("eps", "stock_price")) == set()


def test_places_and_languages():
    assert supplied_parameters("hotels near Union Station in Denver", _params("location")) == {"location"}
    assert supplied_parameters("cafés near Shibuya Crossing", _params("location")) == {"location"}
    assert supplied_parameters("hotels around here", _params("location")) == set()
    assert supplied_parameters("the Bhagavad Gita in Hindi", _params("text_name", "language")) == {"language"}


def test_location_levels():
    assert places.mentioned_levels("the divorce rate in the United States") == {"country"}
    assert places.mentioned_levels("commute times in Chicago") == {"city"}
    assert places.mentioned_levels("jobs created in the Chicago area") == {"sub_region"}
    assert places.mentioned_levels("the population of California") == {"sub_region"}
    assert places.mentioned_levels("a turkey sandwich") == set()


def test_a_gazetteer_matches_the_longest_name_at_a_word_boundary():
    """places._alternation (a trie) matches what `\\b(?:names sorted longest first)\\b` matches."""
    names = ["New York", "New York City", "York", "Newark", "Ne", "São Paulo", "St. Louis", "Washington, D.C."]
    trie = places._alternation(names)
    ordered = sorted({re.escape(n) for n in names if len(n) > 2}, key=len, reverse=True)
    plain = re.compile(r"\b(?:" + "|".join(ordered) + r")\b")
    texts = [
        "from New York City to Newark",
        "New York Citys and New Yorkers in York",
        "São Paulo, St. Louis and Washington, D.C. today",
        "Ne New Newark2 York",
    ]
    for text in texts:
        assert [m.span() for m in trie.finditer(text)] == [m.span() for m in plain.finditer(text)], text
    assert trie.sub(" ", "from New York City to Newark") == "from   to  "


def _row(name, score, parameters=(), deps=()):
    spec = {"name": name, "parameters": [{"name": p, "description": p} for p in parameters]}
    return Candidate(name, score, spec=json.dumps(spec), deps=list(deps))


def _names(query, rows):
    return [r.name for _, r in ordering.rescore(query, rows)]


def _dep(name, via_from, via_type="TOOL_DIRECTLY_DEPENDS_ON", parameter=None):
    return {"name": name, "via": {"from": via_from, "type": via_type, "parameter_name": parameter}}


def test_rescore_prefers_the_named_level_and_the_named_brand():
    rows = [
        _row("get_rate_by_sub_region", 0.80, ["sub_region_code"]),
        _row("get_rate_by_country", 0.79, ["country_code"]),
    ]
    assert _names("the rate in Japan", rows) == ["get_rate_by_country", "get_rate_by_sub_region"]
    rows = [_row("place_instacart_order", 0.80), _row("place_ubereats_order", 0.79)]
    assert _names("get me a burrito on Uber Eats", rows)[0] == "place_ubereats_order"
    # no signal: search order (ties keep it)
    assert _names("something", rows) == ["place_instacart_order", "place_ubereats_order"]
    # rescored(): the rows themselves, reordered, with their new score; the rest after the pool unchanged
    pool = [_row(f"tool_{i}", 0.5) for i in range(ordering.SEED_POOL + 2)]
    out = ordering.rescored("something", pool)
    assert [r.name for r in out] == [r.name for r in pool] and out[-1] is pool[-1]
    assert out[0].score == 0.0 and pool[0].score == 0.5


def test_a_question_prefers_tools_that_read_over_tools_that_act():
    rows = [_row("send_message_with_phone_number", 0.80), _row("searchMessages", 0.78)]
    rescore = lambda q: _names(q, rows)
    assert rescore("What does my most recent message say?") == ["searchMessages", "send_message_with_phone_number"]
    assert rescore("Can you tell me who texted me last?")[0] == "searchMessages"
    # a request to act keeps the search order
    assert rescore("Text Bo that I am late") == ["send_message_with_phone_number", "searchMessages"]
    assert ordering.name_verb("place_doordash_order") == -1 and ordering.name_verb("track_doordash_order") == 1
    assert ordering.name_verb("planet_fitness_log_workout_notes") == -1 and ordering.name_verb("timestamp_diff") == 0


def test_the_description_words_the_query_says_lift_a_tool():
    def row(name, score, description):
        return Candidate(name, score, spec=json.dumps({"name": name, "description": description}))

    rows = [
        row("read_media_file", 0.70, "Read an image or audio file and return it as base64."),
        row("read_text_file", 0.69, "Read the complete contents of a file as text."),
    ]
    rescore = lambda q: _names(q, rows)
    # "contents" and "text" are words of one description only; "read" and "file" of both (idf 0)
    assert rescore("show me the contents of notes.txt as text") == ["read_text_file", "read_media_file"]
    assert rescore("read the file") == ["read_media_file", "read_text_file"]  # no telling word: search order
    assert ordering.description_words(rows[1].spec) == {"read", "complete", "contents", "file", "text"}
    assert ordering.description_words("not json") == frozenset()


def test_supplied_dependencies_go_last_with_what_they_reached():
    row = _row(
        "share_location_via_email",
        0.9,
        ["email_address", "location"],
        deps=[
            _dep("validate_email", "share_location_via_email", "PARAMETER_DIRECTLY_DEPENDS_ON", "email_address"),
            _dep("regex_tool", "validate_email"),
            _dep("get_current_location", "share_location_via_email", "PARAMETER_DIRECTLY_DEPENDS_ON", "location"),
            _dep("get_location_service_status", "get_current_location"),
        ],
    )
    order = [
        d["name"] for d in ordering.supplied_last(row.name, row.spec, row.deps, "send my location to bo@example.com")
    ]
    assert order == ["get_current_location", "get_location_service_status", "validate_email", "regex_tool"]
    assert [d["name"] for d in ordering.supplied_last(row.name, row.spec, row.deps, "send my location to Bo")] == [
        "validate_email",
        "regex_tool",
        "get_current_location",
        "get_location_service_status",
    ]


def test_a_rescored_row_is_the_row_with_its_new_score_only():
    row = Candidate("t", 0.5, "d", '{"name": "t"}', "core", ["m"], [{"name": "dep"}], 2, "cat")
    copy = row.with_score(0.7)
    assert copy is not row and copy == Candidate(
        "t", 0.7, "d", '{"name": "t"}', "core", ["m"], [{"name": "dep"}], 2, "cat"
    )
    assert row.score == 0.5


def test_word_matches_weigh_each_word_by_its_rarity_among_the_sets():
    sets = [frozenset({"get", "weather"}), frozenset({"get", "news"}), frozenset()]
    got = ordering.word_matches({"weather"}, sets)
    idf_get, idf_rare = math.log(4 / 2), math.log(4 / 1)
    assert got == [idf_rare / (idf_get + idf_rare), 0.0, 0.0]
