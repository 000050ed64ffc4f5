"""A reader whose answer is a file, not a JSON value (the importer's `http.response_media_type`), provides nothing,
whatever its description says it returns (kg_tools/deps/producers.py `answers_a_file`; docs/dependencies.md,
twenty-second session: readers that answer with no JSON). Small made-up operations, no names of real ones."""

from __future__ import annotations

from kg_tools.deps.producers import answers_a_file, prepare, tool_kind
from tests.support.made_up_ops import candidate_triples, op

POSTERS = {
    "type": "array",
    "items": {"title": "PosterDto", "type": "object", "properties": {"id": {"type": "string"}}},
}
SHELF = {"name": "shelfId", "type": "string", "required": True, "in": "path"}
POSTER = {"name": "posterId", "type": "string", "required": True, "in": "path"}


def _tools(media: str | None) -> list:
    answer = {"response_media_type": media} if media else {}
    image = {"method": "GET", "path": "/shelves/{shelfId}/poster", **answer}
    return [
        op("listShelfPosters", "GET", "/shelves/{shelfId}/posters", [SHELF], output_schema=POSTERS),
        op("getShelfPoster", "GET", "/shelves/{shelfId}/poster", [SHELF], description="Get shelf's poster", http=image),
        op("deleteShelfPoster", "DELETE", "/shelves/{shelfId}/posters/{posterId}", [SHELF, POSTER]),
    ]


def test_a_reader_answering_an_image_is_no_candidate():
    """Described as getting a poster, the reader is a candidate for a poster id while nothing says what it answers;
    once its answer is an image it is not, and the posters' listing still is."""
    assert ("deleteShelfPoster", "posterId", "getShelfPoster") in candidate_triples(_tools(None))
    found = candidate_triples(_tools("image/jpeg"))
    assert ("deleteShelfPoster", "posterId", "getShelfPoster") not in found
    assert ("deleteShelfPoster", "posterId", "listShelfPosters") in found


def test_only_readers_answering_a_file_are_left_out():
    """A create answering in plain text (a new thing's id) keeps its place; a reader answering JSON too."""
    raw = [
        op(
            "addPoster",
            "POST",
            "/posters",
            [],
            http={"method": "POST", "path": "/posters", "response_media_type": "text/plain"},
        ),
        op("getPoster", "GET", "/posters/{posterId}", [POSTER], http={"method": "GET", "path": "/posters/{posterId}"}),
        op(
            "getPosterFile",
            "GET",
            "/posters/{posterId}/file",
            [POSTER],
            http={
                "method": "GET",
                "path": "/posters/{posterId}/file",
                "response_media_type": "application/octet-stream",
            },
        ),
    ]
    tools = prepare(raw)
    for t in tools.values():
        t.kind = tool_kind(t)
    assert {n for n, t in tools.items() if answers_a_file(t)} == {"getPosterFile"}
