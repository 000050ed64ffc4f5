"""The server-score stage (issue 21 item 3): a tool's score draws on its server's similarity to the
query. Unit test of the blend, and the stage over real (:Server) nodes in Neo4j."""

from __future__ import annotations

from kg_tools.retrieval.context import Candidate
from kg_tools.retrieval.stages.server_score import blend


def test_blend_mixes_the_server_similarity_in_and_resorts():
    candidates = [Candidate("a__x", 0.80), Candidate("b__x", 0.78), Candidate("c__y", 0.70)]
    out = blend(candidates, {"a__x": 0.50, "b__x": 0.90}, 0.5)
    assert [c.name for c in out] == ["b__x", "c__y", "a__x"]  # 0.84, 0.70 (no server: kept), 0.65
    assert [c.score for c in out] == [0.84, 0.7, 0.65]
    assert [c.name for c in blend(candidates, {"a__x": 0.5}, 0.0)] == ["a__x", "b__x", "c__y"]
