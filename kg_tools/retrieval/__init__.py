"""Graph RAG-Tool Fusion retrieval in Neo4j."""

from kg_tools.retrieval import offline_rerank as _offline_rerank  # noqa: F401,E402  (registers rerank-offline)
from kg_tools.retrieval.pipeline import Pipeline, register_stage  # noqa: F401
from kg_tools.retrieval.request import RetrievalRequest, RetrievalResponse  # noqa: F401
from kg_tools.retrieval.stages import builtin as _builtin_stages  # noqa: F401,E402  (registers the stages)
