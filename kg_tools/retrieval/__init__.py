"""Graph RAG-Tool Fusion retrieval in Neo4j."""

from kg_tools.retrieval.pipeline import Pipeline
from kg_tools.retrieval.request import RetrievalRequest, RetrievalResponse

__all__ = ["Pipeline", "RetrievalRequest", "RetrievalResponse"]
