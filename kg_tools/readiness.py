"""Readiness: Neo4j answers and every index (at least the vector and fulltext ones) is ONLINE."""
from __future__ import annotations

from neo4j import READ_ACCESS, Driver

from kg_tools.cypher import query
from kg_tools.errors import DatabaseUnavailableError
from kg_tools.schema import FULLTEXT_INDEX, VECTOR_INDEX
from kg_tools.tool_store import neo4j_errors

REQUIRED_INDEXES = (VECTOR_INDEX, FULLTEXT_INDEX)


def readiness(driver: Driver, settings) -> dict:
    """{"ready": bool, "problems": [...], "indexes": {name: state}}; raises DatabaseUnavailableError."""
    try:
        with neo4j_errors(settings.neo4j_uri), driver.session(database=settings.neo4j_database,
                                                              default_access_mode=READ_ACCESS) as session:
            rows = [r.data() for r in session.run(query("list_indexes"))]
    except DatabaseUnavailableError:
        raise
    except OSError as exc:
        raise DatabaseUnavailableError(f"Neo4j is not reachable at {settings.neo4j_uri}: {exc}") from exc
    states = {r["name"]: r["state"] for r in rows}
    problems = [f"index {name!r} is missing (run `kg-tools schema apply`)" for name in REQUIRED_INDEXES
                if name not in states]
    problems += [f"index {name!r} is {state}, not ONLINE" for name, state in sorted(states.items())
                 if state != "ONLINE"]
    return {"ready": not problems, "problems": problems, "indexes": states}
