"""The error hierarchy the CLI and the API rely on (no Neo4j needed)."""

from __future__ import annotations

import pytest

from kg_tools.errors import KgToolsError, UnknownStageError
from kg_tools.retrieval import Pipeline, RetrievalRequest
from kg_tools.settings import Settings


def test_unknown_stage_error_is_a_kg_tools_error():
    """The CLI prints a KgToolsError as `error: <message>` (anything else as `error: unexpected ...`)
    and the API maps it to 422 unknown_stage."""
    assert issubclass(UnknownStageError, KgToolsError)


def test_the_pipeline_refuses_an_unknown_stage_before_touching_the_graph():
    pipeline = Pipeline(graph=None, embedder=None, settings=Settings())  # plan() never reaches either
    with pytest.raises(UnknownStageError, match=r"unknown stage\(s\): teleport; available: .*dedupe"):
        pipeline.plan(RetrievalRequest(query="book a flight", stages=["teleport"]))
