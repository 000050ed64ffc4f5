"""The server-score stage over real (:Server) nodes in Neo4j: the tool of the server the query is about comes first."""

from __future__ import annotations

import pytest

from kg_tools.gateway.sync import write_server
from kg_tools.ingest import load_catalog
from kg_tools.retrieval import Pipeline, RetrievalRequest


def _entry(server: str, tool: str, description: str) -> dict:
    return {"name": f"{server}__{tool}", "description": description, "upstream": {"server": server, "tool": tool}}


@pytest.mark.integration
def test_server_score_prefers_the_tool_of_the_server_the_query_is_about(empty_graph, embedder, settings):
    """Two servers offer the same tool; only their servers say what they are about."""

    servers = {
        "alpha": {"title": "Spotify music", "instructions": "Songs, albums, artists and playlists on Spotify."},
        "beta": {"title": "Discord chat", "instructions": "Messages, channels and members of Discord servers."},
    }
    for name, info in servers.items():
        entries = [_entry(name, "search_items", "Search for items by keyword and return the matches.")]
        load_catalog(empty_graph, embedder, entries, name, log=lambda *_: None)
        assert write_server(empty_graph, embedder, name, info, entries)
    pipeline = Pipeline(empty_graph, embedder, settings)
    for query, first in [("search for a song by keyword", "alpha"), ("search chat channels by keyword", "beta")]:
        response = pipeline.retrieve(RetrievalRequest(query=query, stages=["server-score"], K=2))
        assert response.tools[0].name == f"{first}__search_items", (query, [t.name for t in response.tools])
        assert any(s.name == "server-score" and "2 of 2 candidates" in s.detail for s in response.stages)
    # without servers in the graph the stage says so and changes nothing
    empty_graph.write("MATCH (s:Server) DETACH DELETE s")
    plain = pipeline.retrieve(RetrievalRequest(query="search for a song by keyword", K=2))
    staged = pipeline.retrieve(RetrievalRequest(query="search for a song by keyword", stages=["server-score"], K=2))
    assert [t.name for t in staged.tools] == [t.name for t in plain.tools]
    assert any(s.name == "server-score" and "scores unchanged" in s.detail for s in staged.stages)
