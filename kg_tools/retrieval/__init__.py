"""Graph RAG-Tool Fusion retrieval in Neo4j."""
from kg_tools.retrieval.pipeline import Pipeline, register_stage  # noqa: F401
from kg_tools.retrieval.request import RetrievalRequest, RetrievalResponse  # noqa: F401
