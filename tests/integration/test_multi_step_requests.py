"""Issue 19 item 3: a request that names several steps is searched step by step and the lists are
merged round-robin (each step's best first); a one-step request is answered as by default (real Neo4j)."""

import pytest

from kg_tools.ingest import load_catalog
from kg_tools.retrieval.pipeline import Pipeline
from kg_tools.retrieval.request import RetrievalRequest
from tests.integration.test_k_is_a_budget import FLAT

TOOLS = FLAT + [
    {"name": "fetch__fetch", "description": "Fetch a URL from the internet and return its contents as markdown."},
    {"name": "filesystem__write_file", "description": "Create a new file or overwrite a file with new content."},
    {"name": "slack__post_message", "description": "Post a new message to a Slack channel."},
    {"name": "time__get_current_time", "description": "Get the current time in a specific timezone."},
]
MULTI = "fetch https://example.com/changelog, then write it to a file called changes.md and post a message on slack"


@pytest.mark.integration
def test_multi_step_requests_get_each_steps_best(empty_graph, embedder, settings):
    load_catalog(empty_graph, embedder, TOOLS, "steps", log=lambda *_: None)
    pipeline = Pipeline(empty_graph, embedder, settings)
    response = pipeline.retrieve(RetrievalRequest(query=MULTI, split_steps=True))
    steps = [s for s in response.stages if s.name == "steps"]
    assert len(steps) == 1 and steps[0].detail.startswith("3 steps")
    assert set(response.names[:3]) == {"fetch__fetch", "filesystem__write_file", "slack__post_message"}
    assert len(response.names) == 10  # K filled from the merged lists
    assert not any(
        s.name == "steps" for s in pipeline.retrieve(RetrievalRequest(query=MULTI, split_steps=False)).stages
    )
    one = "what time is it in Tokyo right now"
    assert (
        pipeline.retrieve(RetrievalRequest(query=one, split_steps=True)).names
        == pipeline.retrieve(RetrievalRequest(query=one, split_steps=False)).names
    )
    # an explicit transform stage wins over split_steps
    staged = pipeline.retrieve(RetrievalRequest(query=MULTI, split_steps=True, stages=["decompose"]))
    assert not any(s.name == "steps" for s in staged.stages)
