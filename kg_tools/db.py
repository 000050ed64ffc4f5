"""Driver creation with a clear error when Neo4j cannot be reached."""
from __future__ import annotations

from neo4j import Driver, GraphDatabase
from neo4j.exceptions import AuthError, ServiceUnavailable

from kg_tools.errors import DatabaseUnavailableError
from kg_tools.settings import Settings


def connect(settings: Settings, verify: bool = True) -> Driver:
    driver = GraphDatabase.driver(
        settings.neo4j_uri,
        auth=(settings.neo4j_user, settings.resolved_password()),
        connection_acquisition_timeout=10.0,
        connection_timeout=5.0,
        notifications_min_severity="OFF",
    )
    if verify:
        try:
            driver.verify_connectivity()
        except (ServiceUnavailable, OSError) as exc:
            driver.close()
            raise DatabaseUnavailableError(
                f"Neo4j is not reachable at {settings.neo4j_uri} ({exc}); start it with `kg-tools neo4j start`"
            ) from exc
        except AuthError as exc:
            driver.close()
            raise DatabaseUnavailableError(
                f"Neo4j at {settings.neo4j_uri} rejected user {settings.neo4j_user!r}: check NEO4J_PASSWORD"
            ) from exc
    return driver
