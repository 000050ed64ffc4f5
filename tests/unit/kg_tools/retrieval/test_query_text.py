"""Issue 19 item 6: long requests (a whole user message with pasted data) are accepted up to the body
limit; what is searched is cleaned and bounded, and `stages` says so."""

import base64
import os

from kg_tools.retrieval.query_text import CLEAN_ABOVE, MAX_WORDS, clean_query

IMAGE = "data:image/png;base64," + base64.b64encode(os.urandom(12_000)).decode()
TASK = (
    "Please look at the screenshot of our sales dashboard below, find the github issue that tracks the broken "
    "chart, then summarise it and post the summary to the #analytics slack channel. "
)


def test_short_requests_pass_unchanged():
    assert clean_query("open a github issue").detail == ""
    text = "word " * 100
    assert clean_query(text).text == text and clean_query(text).detail == ""


def test_a_pasted_image_and_data_are_not_searched():
    csv = "\n".join(",".join(str(i * j) for j in range(60)) for i in range(80))
    code = "```python\n" + "x = compute(a, b)\n" * 60 + "```"
    message = TASK + "\n" + IMAGE + "\n" + csv + "\n" + code + "\nThanks! " + "A" * 40 + " " + "f3a9" * 64
    assert len(message) > 18_000
    cleaned = clean_query(message)
    assert "data:" not in cleaned.text and "base64" not in cleaned.text and "compute" not in cleaned.text
    assert "f3a9f3a9" not in cleaned.text and ",1,2," not in cleaned.text
    assert cleaned.text.startswith("Please look at the screenshot") and "slack channel" in cleaned.text
    assert "data URI" in cleaned.detail and "code block" in cleaned.detail and "data line" in cleaned.detail


def test_a_long_message_is_bounded_to_its_head_and_tail():
    words = ["w0"] + ["please"] * 4998 + ["w4999"]
    cleaned = clean_query(" ".join(words))
    kept = cleaned.text.split()
    assert len(kept) == MAX_WORDS and kept[0] == "w0" and kept[-1] == "w4999"
    assert "bounded to" in cleaned.detail
    assert len(clean_query("x" * (CLEAN_ABOVE * 10)).text) <= CLEAN_ABOVE  # one blob only: something is left
