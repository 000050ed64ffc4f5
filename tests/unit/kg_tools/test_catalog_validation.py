"""Unit tests for whole-catalog validation (no database)."""

import re

import pytest

from kg_tools.errors import CatalogError
from kg_tools.tool_spec import (
    DOCUMENT_WORDS,
    TOOL_NAME_PATTERN,
    DependencyType,
    ToolSpec,
    check_name,
    count_back_edges,
    lone_surrogate,
    normalise_dependency_type,
    split_name,
    tool_document,
    validate_catalog,
)


def tool(name, deps=(), func_type="regular", **extra):
    return {
        "name": name,
        "description": f"{name} does things",
        "parameters": [],
        "func_type": func_type,
        "depends_on": [{"name": d, "dependence_type": t, "parameter_name": None, "reason": "r"} for d, t in deps],
        **extra,
    }


def test_valid_catalog_counts_types_and_kinds():
    cat = validate_catalog(
        [
            tool("a", [("b", "TOOL_DIRECTLY_DEPENDS_ON"), ("c", "PARAMETER_INDIRECTLY_DEPENDS_ON")]),
            tool("b", func_type="core"),
            tool("c"),
        ]
    )
    assert cat.report.tools == 3 and cat.report.core == 1 and cat.report.regular == 2
    assert cat.report.edges_by_type == {"TOOL_DIRECTLY_DEPENDS_ON": 1, "PARAMETER_INDIRECTLY_DEPENDS_ON": 1}
    assert [(e.source, e.target, e.type) for e in cat.edges] == [
        ("a", "b", DependencyType.TOOL_DIRECTLY_DEPENDS_ON),
        ("a", "c", DependencyType.PARAMETER_INDIRECTLY_DEPENDS_ON),
    ]


def test_every_offender_is_listed():
    with pytest.raises(CatalogError) as err:
        validate_catalog(
            [
                tool("a", [("a", "TOOL_DIRECTLY_DEPENDS_ON")]),
                tool("b", [("ghost", "TOOL_DIRECTLY_DEPENDS_ON")]),
                tool("b"),
                tool("c", [("a", "SOMETIMES_DEPENDS_ON")]),
            ]
        )
    problems = "\n".join(err.value.problems)
    assert "self-loop: a -> a" in problems
    assert "dangling dependency target: b -> ghost" in problems
    assert "duplicate tool name 'b'" in problems
    assert "unknown dependence_type 'SOMETIMES_DEPENDS_ON'" in problems
    assert len(err.value.problems) == 4


def test_nonstandard_types_normalised_with_warning_or_rejected_under_strict():
    raw = [tool("a", [("b", "PARAMETER_DEPENDS_ON"), ("c", "PARAMETER INDIRECTLY_DEPENDS_ON")]), tool("b"), tool("c")]
    cat = validate_catalog(raw)
    assert [e.type for e in cat.edges] == [
        DependencyType.PARAMETER_DIRECTLY_DEPENDS_ON,
        DependencyType.PARAMETER_INDIRECTLY_DEPENDS_ON,
    ]
    assert len(cat.report.warnings) == 2 and "a -> b" in cat.report.warnings[0]
    with pytest.raises(CatalogError) as err:
        validate_catalog(raw, strict=True)
    assert len(err.value.problems) == 2 and all("--strict" in p for p in err.value.problems)


def test_schema_errors_name_the_tool_and_field():
    with pytest.raises(CatalogError) as err:
        validate_catalog([{"name": "x", "func_type": "utility"}, {"description": "no name"}, 42])
    problems = err.value.problems
    assert any("'x'" in p and "func_type" in p for p in problems)
    assert any("tool #1" in p and "name" in p for p in problems)
    assert any("tool #2" in p and "not a JSON object" in p for p in problems)


def test_known_names_satisfy_targets_outside_the_file():
    cat = validate_catalog([tool("a", [("existing", "TOOL_INDIRECTLY_DEPENDS_ON")])], known_names={"existing"})
    assert cat.edges[0].target == "existing"


def test_cycles_are_legal_and_counted():
    cat = validate_catalog(
        [
            tool("a", [("b", "TOOL_DIRECTLY_DEPENDS_ON")]),
            tool("b", [("a", "TOOL_DIRECTLY_DEPENDS_ON")]),
            tool("c", [("a", "TOOL_DIRECTLY_DEPENDS_ON")]),
        ]
    )
    assert cat.report.cycle_back_edges == 1
    assert count_back_edges(["x", "y"], []) == 0


@pytest.mark.parametrize(
    "raw,expected",
    [
        ("TOOL_DIRECTLY_DEPENDS_ON", "TOOL_DIRECTLY_DEPENDS_ON"),
        ("parameter indirectly depends on", "PARAMETER_INDIRECTLY_DEPENDS_ON"),
        ("PARAMETER_DEPENDS_ON", "PARAMETER_DIRECTLY_DEPENDS_ON"),
        ("NOPE", None),
    ],
)
def test_normalise_dependency_type(raw, expected):
    got = normalise_dependency_type(raw)
    assert (got.value if got else None) == expected


def test_document_text_splits_names():
    assert split_name("getFilmDetails") == "get film details"
    assert split_name("get_current_date") == "get current date"
    assert split_name("HTMLParser") == "html parser"


def test_an_acronyms_plural_stays_one_word():
    assert split_name("deleteIDs") == "delete ids"  # not "delete i ds"
    assert split_name("peerURLs") == "peer urls"
    assert split_name("getUserIDsById") == "get user ids by id"
    assert split_name("URLShortener") == "url shortener"  # an acronym before a word still splits


def test_document_text_splits_parameter_names():
    spec = ToolSpec.model_validate(
        {
            "name": "get_weather",
            "description": "Weather now.",
            "parameters": [{"name": "cityName", "description": "City."}],
        }
    )
    assert tool_document(spec) == "get weather. Weather now. Parameters: city name: City."


def test_long_document_lists_parameters_by_name_only():
    """Past DOCUMENT_WORDS words the parameters' descriptions go (their names stay): what the tool does
    is what the embedding must carry (the filesystem server's read_text_file: 114 words, 70 after)."""

    long_help = " ".join(["Only the last N lines of the file are returned when this is set."] * 4)
    spec = ToolSpec.model_validate(
        {
            "name": "filesystem__read_text_file",
            "description": "Read the complete contents of a file from the file system as text. " * 3,
            "parameters": [{"name": "path"}, {"name": "tail", "description": long_help}, {"name": "headLines"}],
        }
    )
    short = tool_document(spec)
    assert short.endswith("Parameters: path, tail, head lines") and "last N lines" not in short
    assert len(short.split()) <= DOCUMENT_WORDS
    assert "tail: " + long_help in tool_document(spec, max_words=None)  # dependency inference reads them all


@pytest.mark.parametrize(
    "name, problem",
    [
        ("nul\x00name", "control character U+0000 at position 3"),
        ("tab\tname", "control character U+0009 at position 3"),
        ("c1\x9bname", "control character U+009B at position 2"),
        ("   ", "tool name is empty"),
    ],
)
def test_names_with_control_characters_are_rejected(name, problem):
    """Issue #8 item 13: a NUL in a tool name was accepted."""
    with pytest.raises(CatalogError) as err:
        validate_catalog([tool(name)])
    assert problem in "\n".join(err.value.problems)


@pytest.mark.parametrize(
    "name",
    [
        "plain",
        "a/b",
        "x'}) DETACH DELETE n //",
        "with space",
        "ünï 工具 🛠",
        "\ufeffbom",
        " padded ",
        "nul\x00name",
        "line\nbreak",
        "\x85next",
        "em\u2003space",
        "\u3000",
        "a" * 200,
    ],
)
def test_the_documented_name_pattern_agrees_with_check_name(name):
    """The JSON Schema pattern of tool names (path and body) accepts exactly the names check_name keeps
    unchanged, so the OpenAPI schema and the server agree character for character."""

    try:
        kept = check_name(name) == name
    except ValueError:
        kept = False
    assert bool(re.match(TOOL_NAME_PATTERN, name)) == kept


def test_lone_surrogates_are_found_anywhere_in_a_tool():
    assert (
        lone_surrogate({"name": "ok", "parameters": [{"name": "p", "description": "a \ud800 b"}]})
        == "parameters.0.description: lone surrogate U+D800 at position 2"
    )
    assert lone_surrogate({"name": "ok", "x": {"\udfff": 1}}).endswith("a key with a lone surrogate")
    assert lone_surrogate({"name": "😀 pairs are fine", "list": ["é", ["工具"]]}) is None
    with pytest.raises(CatalogError, match="lone surrogate U\\+DC00"):
        validate_catalog([tool("ok") | {"description": "\udc00"}])
