"""The ToolScope merger's offline parts on hand-made signatures: auto-correction splits unalignable signatures, components and integrity checks (no database)."""

from __future__ import annotations

import pytest

from kg_tools.errors import MergeIntegrityError
from kg_tools.merge.autocorrect import OfflineValidator
from kg_tools.merge.cluster import check_integrity, components
from kg_tools.merge.signature import ToolSignature
from tests.integration.test_merge import p


def _sig(name, *params):
    return ToolSignature.from_spec({"name": name, "description": "", "parameters": list(params)})


def test_offline_auto_correction_splits_unalignable_signatures():
    tools = {
        "getFilm": _sig("getFilm", p("title", "str", "The title of the film")),
        "getFilmInfo": _sig("getFilmInfo", p("film_name", "str", "The name of the film")),
        "getFilmData": _sig("getFilmData", p("year", "int", "Release year"), p("studio", "str", "Studio")),
    }
    result = OfflineValidator().validate(["getFilm", "getFilmInfo", "getFilmData"], tools)
    assert result.verdict == "MERGE_BAD" and result.clusters == [["getFilm", "getFilmInfo"]]
    ok = OfflineValidator().validate(["getFilm", "getFilmInfo"], tools)
    assert ok.verdict == "MERGE_OK" and ok.clusters == [["getFilm", "getFilmInfo"]]


def test_components_and_integrity_checks():
    assert components([("b", "c"), ("aa", "b"), ("x", "y")]) == [["b", "c", "aa"], ["x", "y"]]
    names = {"a", "b", "c", "d"}
    assert check_integrity([["a", "b"]], names) == {"a": "a", "b": "a", "c": "c", "d": "d"}
    with pytest.raises(MergeIntegrityError, match="in clusters"):
        check_integrity([["a", "b"], ["c", "b"]], names)
    with pytest.raises(MergeIntegrityError, match="both kept"):
        check_integrity([["a", "b"], ["c", "a"]], names)
    with pytest.raises(MergeIntegrityError, match="not a tool"):
        check_integrity([["a", "zz"]], names)
