"""OData key predicates in HTTP paths (`/Libraries({Id})/Documents`): the key is the segment's collection's, as
in `/Libraries/{Id}/Documents` (first contact with an OData spec, s20fc2). Small made-up specs."""

from __future__ import annotations

import pytest

from kg_tools.deps.producers import _keyed_segments
from tests.support.made_up_ops import op, wanted


def _page(title: str) -> dict:
    item = {"type": "object", "title": title, "properties": {"Id": {"type": "integer"}, "Name": {"type": "string"}}}
    return {"type": "object", "properties": {"value": {"type": "array", "items": item}}}


def _key(name: str = "Id") -> dict:
    return {"name": name, "type": "integer", "description": "", "required": True, "in": "path"}


@pytest.mark.parametrize(
    ("path", "read"),
    [
        ("/Libraries({Id})/Documents", "/Libraries/{Id}/Documents"),
        ("/Documents({Id})/Revisions({Id1})/$ref", "/Documents/{Id}/Revisions/{Id1}/$ref"),
        ("/People('{UserName}')", "/People/{UserName}"),
        ("/GetNearestAirport(lat={lat},lon={lon})", "/GetNearestAirport(lat={lat},lon={lon})"),
        ("/Orders(OrderId={OrderId},Line={Line})", "/Orders(OrderId={OrderId},Line={Line})"),
        ("/files/{name}.json", "/files/{name}.json"),
        ("/Categories/$count", "/Categories/$count"),
    ],
)
def test_only_a_single_key_predicate_becomes_a_segment(path, read):
    assert _keyed_segments({"method": "GET", "path": path})["path"] == read


def test_the_key_before_a_navigation_is_the_parent_collections():
    """`GET /Libraries({Id})/Documents`: `{Id}` is a library's key (from the libraries), not a document's."""
    tools = [
        op("ListLibraries", "GET", "/Libraries", [], output_schema=_page("LibraryDto")),
        op("ListDocuments", "GET", "/Documents", [], output_schema=_page("DocumentDto")),
        op("ListLibraryDocuments", "GET", "/Libraries({Id})/Documents", [_key()], output_schema=_page("DocumentDto")),
        op("GetDocument", "GET", "/Documents({Id})", [_key()]),
    ]
    found = wanted(tools)
    assert "ListLibraries" in found[("ListLibraryDocuments", "Id")][2]
    assert "ListDocuments" not in found[("ListLibraryDocuments", "Id")][2]
    assert "ListDocuments" in found[("GetDocument", "Id")][2]
