"""Seal-Tools-style multi-step requests: the offline splitter (pure), the decompose stage on a hand-made
catalog in the real Neo4j, and `kg-tools eval seal-tools --methods/--alpha/--stages` end to end."""

from __future__ import annotations

import pytest

from kg_tools.retrieval.stages.split import split_request
from kg_tools.retrieval.stages.transform import offline_decomposition

# -- the splitter ----------------------------------------------------------------------------


# Requests written by us in the style of our dev sets (benchmarks/data/devset_*.json), not
# paraphrases of Seal-Tools' test queries.
@pytest.mark.parametrize(
    "text,parts",
    [
        # a bare "and" inside a noun phrase keeps the phrase whole
        (
            "find the Torah passages about Joseph and his brothers",
            ["find the Torah passages about Joseph and his brothers"],
        ),
        (
            "get eggs, milk and spinach from Instacart delivered on 2025-04-12",
            ["get eggs, milk and spinach from Instacart delivered on 2025-04-12"],
        ),
        # ... but splits before a new action, and at a sequencer
        ("Get the weather in Lisbon and book a table at Nopa", ["Get the weather in Lisbon", "book a table at Nopa"]),
        (
            "log into Amazon with dana.w@icloud.com and then add a yoga mat to my cart",
            ["log into Amazon with dana.w@icloud.com", "add a yoga mat to my cart"],
        ),
        # "also" after a subject is not a boundary; a leading "Also"/"Finally," is dropped
        ("I also want an aisle seat on my Delta flights", ["I also want an aisle seat on my Delta flights"]),
        ("Check where I am. Finally, find me a hotel nearby", ["Check where I am", "find me a hotel nearby"]),
        # a descriptive sentence is context for the previous request; courtesy pieces vanish
        (
            "Please track my Uber Eats order. The order number is A7F33. Thanks a lot for the help!",
            ["Please track my Uber Eats order. The order number is A7F33"],
        ),
        # ... unless it makes a request of its own
        (
            "Turn off the wifi. Please also lower the thermostat to 19 degrees",
            ["Turn off the wifi", "Please also lower the thermostat to 19 degrees"],
        ),
    ],
)
def test_split_request(text, parts):
    assert split_request(text, 5) == parts


def test_split_joins_instead_of_cutting_past_the_limit():
    text = "Get the weather. Play a song. Book a taxi. Send an email. Order a pizza. Call my mother."
    parts = split_request(text, 3)
    assert len(parts) == 3
    words = lambda s: s.replace(";", " ").split()  # noqa: E731
    assert sum(len(words(p)) for p in parts) == len(words(text.replace(".", "")))  # nothing dropped
    assert offline_decomposition(text, 3) == parts
    assert len(split_request(text, 10)) == 6


# -- the decompose stage on a hand-made catalog ----------------------------------------------
