"""Readiness: Neo4j answers and every index (at least the vector and fulltext ones) is ONLINE."""

from __future__ import annotations

from kg_tools.cypher import query
from kg_tools.graph import Graph
from kg_tools.schema import FULLTEXT_INDEX, VECTOR_INDEX

REQUIRED_INDEXES = (VECTOR_INDEX, FULLTEXT_INDEX)


def readiness(graph: Graph) -> dict:
    """{"ready": bool, "problems": [...], "indexes": {name: state}}; raises DatabaseUnavailableError."""
    states = {r["name"]: r["state"] for r in graph.read(query("list_indexes"))}
    problems = [
        f"index {name!r} is missing (run `kg-tools schema apply`)" for name in REQUIRED_INDEXES if name not in states
    ]
    problems += [
        f"index {name!r} is {state}, not ONLINE" for name, state in sorted(states.items()) if state != "ONLINE"
    ]
    return {"ready": not problems, "problems": problems, "indexes": states}
