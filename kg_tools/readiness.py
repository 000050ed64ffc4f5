"""Readiness: Neo4j answers, every index (at least the vector and fulltext ones) is ONLINE and the graph's
vectors were made by the configured embedding model."""

from __future__ import annotations

from kg_tools.cypher import query
from kg_tools.embedding_check import mismatch, vector_models
from kg_tools.graph import Graph
from kg_tools.schema import FULLTEXT_INDEX, VECTOR_INDEX

REQUIRED_INDEXES = (VECTOR_INDEX, FULLTEXT_INDEX)


def readiness(graph: Graph, model: str | None = None) -> dict:
    """{"ready": bool, "problems": [...], "indexes": {name: state}}; raises DatabaseUnavailableError.
    `model`: the configured embedding model's name; vectors of another model are a problem."""
    states = {r["name"]: r["state"] for r in graph.read(query("list_indexes"))}
    problems = [
        f"index {name!r} is missing (run `kg-tools schema apply`)" for name in REQUIRED_INDEXES if name not in states
    ]
    problems += [
        f"index {name!r} is {state}, not ONLINE" for name, state in sorted(states.items()) if state != "ONLINE"
    ]
    if model is not None:
        others = {m: n for m, n in vector_models(graph).items() if m != model}
        if others:
            problems.append(str(mismatch(others, model, "retrieval refuses to search them")))
    return {"ready": not problems, "problems": problems, "indexes": states}
