"""Constraints and indexes from schema/*.cypher; applying twice changes nothing."""

from __future__ import annotations

from kg_tools.cypher import SCHEMA_DIR, query, statements
from kg_tools.errors import SchemaMismatchError
from kg_tools.graph import Graph

VECTOR_INDEX = "tool_embedding"
QUESTION_INDEX = "question_embedding"  # enrichment questions (schema/enrichment.cypher)
VECTOR_INDEXES = (VECTOR_INDEX, QUESTION_INDEX)
FULLTEXT_INDEX = "tool_text"
FULLTEXT_FIELDS = 4  # properties of tool_text in schema/schema.cypher (name, name_words, description, param_text)


def vector_index_dimensions(graph: Graph, name: str = VECTOR_INDEX) -> int | None:
    records = graph.read(query("vector_index_info"), name=name)
    return int(records[0]["dimensions"]) if records and records[0]["dimensions"] is not None else None


def check_dimensions(graph: Graph, dimensions: int, model_name: str) -> None:
    """Fail before any write if a vector index was built for another embedding size."""
    for name in VECTOR_INDEXES:
        existing = vector_index_dimensions(graph, name)
        if existing is None or existing == dimensions:
            continue
        raise SchemaMismatchError(
            f"vector index {name!r} has {existing} dimensions but the embedder {model_name!r} "
            f"produces {dimensions}. Nothing was written. Either set KG_TOOLS_EMBED_MODEL back to the model "
            f"the graph was built with, or re-index with `kg-tools schema reindex` (drops the vector indexes, "
            f"recreates them with {dimensions} dimensions and re-embeds every tool and enrichment question)."
        )


def apply_schema(graph: Graph, dimensions: int, model_name: str, timeout_seconds: int = 300) -> list[str]:
    check_dimensions(graph, dimensions, model_name)
    applied = []
    for path in sorted(SCHEMA_DIR.glob("*.cypher")):
        for stmt in statements(path):
            params = {"dimensions": dimensions} if "$dimensions" in stmt else {}
            graph.write(stmt, params)
            applied.append(stmt.split("\n")[0][:90])
    graph.read(query("await_indexes"), timeout_seconds=timeout_seconds)
    return applied


def drop_vector_indexes(graph: Graph) -> None:
    for name in VECTOR_INDEXES:
        graph.write(query("drop_index"), name=name)


def list_indexes(graph: Graph) -> list[dict]:
    return graph.read(query("list_indexes"))
