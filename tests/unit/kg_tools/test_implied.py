"""implied_utilities(step): the utilities a step implies, only on explicit evidence (kg_tools/implied.py)."""

from __future__ import annotations

import pytest

from kg_tools.implied import ImpliedTool, implied_utilities, pick_utilities


@pytest.mark.parametrize(
    ("step", "expected"),
    [
        ("Write a research report on solar storms and save it as report.md", [("file_write", "report.md")]),
        ("Read the README and save a summary to notes.txt", [("file_read", "README"), ("file_write", "notes.txt")]),
        ("Put the meeting minutes into ~/notes/minutes.txt", [("file_write", "~/notes/minutes.txt")]),
        ("Export the table to out/data.csv", [("file_write", "out/data.csv")]),
        ("Download the dataset saved at /tmp/x.csv", [("file_write", "/tmp/x.csv")]),
        ("Summarise report.md in three bullet points", [("file_read", "report.md")]),
        ("Load the numbers from sales.csv", [("file_read", "sales.csv")]),
        ("Open ~/notes/todo.md", [("file_read", "~/notes/todo.md")]),
        ("What is in data.csv?", [("file_read", "data.csv")]),
        ("Summarise https://example.com/blog/post.html", [("fetch_url", "https://example.com/blog/post.html")]),
        ("What does www.python.org say about 3.13?", [("fetch_url", "www.python.org")]),
        ("Give me the gist of this article", [("fetch_url", "this article")]),
        ("Search the web for the latest Rust release notes", [("web_search", "Search the web")]),
        (
            "Look up reviews of the Framework laptop online",
            [("web_search", "Look up reviews of the Framework laptop online")],
        ),
        ("Do a web search on heat pumps", [("web_search", "web search")]),
        ("Run `ls -la` in /tmp", [("run_command", "Run `ls -la`")]),
        ("Run npm test and tell me what failed", [("run_command", "Run npm test")]),
        ("Execute the shell command that lists open ports", [("run_command", "Execute the shell command")]),
        ("Convert report.docx to PDF", [("convert_document", "Convert report.docx to PDF")]),
        ("Export the meeting notes as markdown", [("convert_document", "Export the meeting notes as markdown")]),
        ("Remember that Alice works at Acme", [("memory_write", "Remember that")]),
        ("Store the key facts in memory", [("memory_write", "Store the key facts in memory")]),
        ("Keep in mind that I am vegetarian", [("memory_write", "Keep in mind")]),
        (
            "Fetch https://example.org/paper and save the summary to summary.md",
            [("fetch_url", "https://example.org/paper"), ("file_write", "summary.md")],
        ),
    ],
)
def test_explicit_evidence_implies_a_utility(step, expected):
    assert implied_utilities(step) == expected


@pytest.mark.parametrize(
    "step",
    [
        "Write a poem about autumn",
        "Save money on groceries this month",
        "Run a marathon training plan for me",
        "Run the deployment pipeline on CircleCI",
        "Execute the trade when the price drops",
        "Look up the weather in Paris",
        "Find the cheapest flight to Lisbon",
        "Search my emails for the invoice from Acme",
        "Remember to call mom on Sunday",
        # a file a text reader or writer does not handle, a URL opened another way, a directory
        "Summarise report.pdf in three bullet points",
        "Sort the Orders sheet of ./sales.xlsx by amount",
        "Open https://status.acme.io in the browser and check it",
        "Get me the transcript of https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "Run the linter in ./frontend",
        "Send my current location to john@example.com",
        "Update this page in Notion with the new roadmap",
        "Use Node.js to build a server",
        "Post the results to the webhook https://hooks.example.com/x",
        "Translate the paragraph into French",
        "Create a Jira issue for the login bug",
        "Read my latest Slack messages",
        "It works 24/7 and/or on weekends",
    ],
)
def test_no_evidence_implies_nothing(step):
    assert implied_utilities(step) == []


def test_one_entry_per_kind_in_text_order():
    found = implied_utilities("Read a.txt and b.txt, then write c.md")
    assert found == [("file_read", "a.txt"), ("file_write", "c.md")]


def test_pick_one_utility_per_kind():

    utilities = [
        {"name": "desktop_commander__write_file", "kind": "file_write", "catalog": "x", "score": 0.6},
        {"name": "filesystem__write_file", "kind": "file_write", "catalog": "x", "score": 0.5},
        {"name": "fetch__fetch", "kind": "fetch_url", "catalog": "x", "score": None},
    ]
    implied = implied_utilities("Save it as notes.md")
    assert pick_utilities(implied, utilities) == [
        ImpliedTool("desktop_commander__write_file", "file_write", "notes.md")
    ]
    # a utility of the server the step's seeds come from wins over a better score
    assert pick_utilities(implied, utilities, {"filesystem"})[0].name == "filesystem__write_file"
    # no web-search utility in the catalog: nothing attached
    assert pick_utilities(implied_utilities("Search the web for flights"), utilities) == []


def test_a_reader_of_one_text_file_is_picked_before_media_several_or_deprecated_readers():
    def row(name, score, spec="{}"):
        return {"name": f"filesystem__{name}", "kind": "file_read", "score": score, "spec": spec}

    readers = [
        row("read_file", 0.9, '{"description": "Read a file. DEPRECATED: use read_text_file"}'),
        row("read_media_file", 0.8),
        row("read_multiple_files", 0.95),
        row("read_text_file", 0.5),
    ]
    assert pick_utilities([("file_read", "notes.md")], readers)[0].name == "filesystem__read_text_file"
