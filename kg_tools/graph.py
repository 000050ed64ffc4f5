"""The graph gateway: the one owner of the Neo4j driver.

Every read and write of the package goes through a `Graph`:

- every session is opened on the configured database (`NEO4J_DATABASE`), never the server default;
- reads run as managed read transactions (`execute_read`), writes as one managed write transaction
  (`execute_write`): a unit of work runs whole or not at all;
- what the driver marks retryable is retried: a broken pooled connection (e.g. the first request
  after a Neo4j restart) at once on a fresh connection, a transient server error (deadlock, database
  still starting) with a short backoff. A server that refuses connections fails at once, so every
  caller gets the same fast `DatabaseUnavailableError` (HTTP 503) instead of the driver's 30-second
  retry loop;
- a node deleted by a concurrent transaction while this one reads it (EntityNotFound) is retried
  like a transient error; a write still conflicting when the retry time is up is a
  `WriteConflictError` (HTTP 409);
- a connection lost while COMMIT was in flight (`IncompleteCommit`) is an `OutcomeUnknownError`: the
  write may have committed; the caller is told to run it again (kg-tools writes are idempotent);
- a rejected login (wrong password, or Neo4j's rate limit after failed logins) is a
  `ConfigurationError` (HTTP 503 `misconfigured`), remembered for `neo4j_auth_backoff_seconds`: calls
  in that time fail at once without logging in again, so a misconfigured client polling at 10 Hz
  does not make Neo4j lock the user out for correctly configured clients;
- Neo4j out of transaction memory is a `DatabaseMemoryError` naming the setting to raise;
- "unreachable", a missing database and text Bolt cannot carry (a lone UTF-16 surrogate) become
  kg-tools errors here, in one place.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from neo4j import READ_ACCESS, WRITE_ACCESS, Driver, GraphDatabase, ManagedTransaction
from neo4j.exceptions import AuthError, DriverError, IncompleteCommit, Neo4jError, ServiceUnavailable, SessionExpired

from kg_tools.errors import (
    ConfigurationError,
    DatabaseMemoryError,
    DatabaseUnavailableError,
    InvalidTextError,
    OutcomeUnknownError,
    WriteConflictError,
)
from kg_tools.settings import Settings

T = TypeVar("T")
Work = Callable[[ManagedTransaction], T]

# A lost connection is retried at once (the driver has dropped the pool's idle connections to that
# server, so the next attempt opens a fresh one); a refused connection fails after these attempts.
CONNECTION_ATTEMPTS = 3
FIRST_BACKOFF = 0.05  # seconds before the first retry of a transient server error; doubles each time
DATABASE_NOT_FOUND = "Neo.ClientError.Database.DatabaseNotFound"
ENTITY_NOT_FOUND = "Neo.ClientError.Statement.EntityNotFound"  # deleted by a concurrent transaction
AUTH_RATE_LIMIT = "Neo.ClientError.Security.AuthenticationRateLimit"


class Graph:
    """A small facade over one `neo4j.Driver`: `read`, `write`, `read_transaction`, `transaction`."""

    def __init__(self, settings: Settings):
        self.settings = settings
        if not settings.neo4j_uri:  # Settings fills in the local default; a copy may have cleared it
            raise ConfigurationError("NEO4J_URI is empty: set it to the Neo4j server (bolt:// or neo4j://)")
        self.uri: str = settings.neo4j_uri
        self.database = settings.neo4j_database
        self.retry_seconds = settings.neo4j_retry_seconds
        self.auth_backoff_seconds = settings.neo4j_auth_backoff_seconds
        self._auth_failure: tuple[float, ConfigurationError] | None = None  # (until, error): no login before
        self._auth_lock = threading.Lock()
        self._driver: Driver = GraphDatabase.driver(
            self.uri,
            auth=(settings.neo4j_user, settings.resolved_password()),
            connection_acquisition_timeout=10.0,
            connection_timeout=5.0,
            notifications_min_severity="OFF",
        )

    @classmethod
    def connect(cls, settings: Settings, verify: bool = True) -> Graph:
        """A gateway; with verify, fail now (clear error) if Neo4j or the database cannot be used."""
        graph = cls(settings)
        if verify:
            try:
                graph.read("RETURN 1 AS ok")
            except Exception:
                graph.close()
                raise
        return graph

    @property
    def driver(self) -> Driver:
        """The one driver (kg_tools.ogm shares it with neomodel)."""
        return self._driver

    def close(self) -> None:
        self._driver.close()

    def __enter__(self) -> Graph:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the four ways in ------------------------------------------------------------------------
    def read(self, cypher: str, params: dict[str, Any] | None = None, **kwargs) -> list[dict]:
        """One query in a managed read transaction; the rows as dicts."""
        return self.read_transaction(lambda tx: _rows(tx, cypher, {**(params or {}), **kwargs}))

    def read_plain(self, cypher: str, params: dict[str, Any] | None = None) -> list[dict]:
        """As `read`, for one query that returns only maps, lists and scalars (no nodes or
        relationships): dict(record) instead of Record.data() saves ~0.5 ms per retrieval, and an
        auto-commit read is ONE Bolt round trip (RUN+PULL; a managed transaction adds a COMMIT
        round trip, +0.25 ms). Same database, routing (readers) and retry policy as `read`."""
        return self._execute(
            READ_ACCESS, lambda session: [dict(record) for record in session.run(cypher, params or {})], autocommit=True
        )

    def read_plain_versioned(self, cypher: str, params: dict[str, Any] | None = None) -> tuple[list[dict], str]:
        """As `read_plain`, plus the version of the graph the read saw: the session's bookmark after
        the query, i.e. the database's last committed transaction (every write -- by kg-tools, Neo4j
        Browser or anyone else -- gives a new one). Two reads with equal versions had no commit
        between them; kg_tools/retrieval/seed_cache.py keys its entries on it."""

        def work(session):
            rows = [dict(record) for record in session.run(cypher, params or {})]
            return rows, "|".join(sorted(session.last_bookmarks().raw_values))

        return self._execute(READ_ACCESS, work, autocommit=True)

    def write(self, cypher: str, params: dict[str, Any] | None = None, **kwargs) -> list[dict]:
        """One query in a managed write transaction; the rows as dicts."""
        return self.transaction(lambda tx: _rows(tx, cypher, {**(params or {}), **kwargs}))

    def read_transaction(self, work: Work[T]) -> T:
        """`work(tx)` in one managed read transaction (may run again if the driver says retry)."""
        return self._execute(READ_ACCESS, work)

    def transaction(self, work: Work[T]) -> T:
        """`work(tx)` in ONE managed write transaction: committed when it returns, rolled back
        when it raises. It may run again after a retryable failure, so it must not keep state
        across attempts (build parameters before, run queries inside)."""
        return self._execute(WRITE_ACCESS, work)

    # -- the policy ------------------------------------------------------------------------------
    def session(self, access_mode: str):
        """A driver session on the configured database (the only place sessions are opened).
        max_transaction_retry_time=0: the driver makes one attempt, `_execute` decides on retries."""
        return self._driver.session(
            database=self.database, default_access_mode=access_mode, max_transaction_retry_time=0.0
        )

    def retrying(self, attempt: Callable[[], T]) -> T:
        """`attempt()` under this policy, for work that opens its own transaction on this graph's driver
        (kg_tools.ogm: neomodel's `db.read_transaction` / `db.write_transaction`): run again after a
        retryable failure, errors turned into kg-tools errors as for `read_transaction` and `transaction`."""
        claimed = self._claim_login()
        try:
            return self._attempts(attempt)
        finally:
            if claimed is not None:  # the one login of the window is over: forget the old failure unless
                with self._auth_lock:  # it failed again (then _auth_failed stored a new one)
                    if self._auth_failure is claimed:
                        self._auth_failure = None

    def _execute(self, access_mode: str, work: Work[T], autocommit: bool = False) -> T:
        def attempt() -> T:
            with self.session(access_mode) as session:
                if autocommit:  # work(session): session.run, one auto-commit query
                    return work(session)
                if access_mode == READ_ACCESS:
                    return session.execute_read(work)
                return session.execute_write(work)

        return self.retrying(attempt)

    def _attempts(self, attempt: Callable[[], T]) -> T:
        deadline = time.monotonic() + self.retry_seconds
        backoff = FIRST_BACKOFF
        lost = 0
        while True:
            try:
                return attempt()
            except IncompleteCommit as exc:
                raise OutcomeUnknownError(
                    f"the connection to Neo4j at {self.uri} broke while the write was committing ({exc}): "
                    f"the outcome is unknown; run it again (loads are idempotent)"
                ) from exc
            except (ServiceUnavailable, SessionExpired) as exc:
                lost += 1
                if not exc.is_retryable() or lost >= CONNECTION_ATTEMPTS or time.monotonic() > deadline:
                    raise self.unavailable(exc) from exc
            except AuthError as exc:
                raise self._auth_failed(
                    f"Neo4j at {self.uri} rejected user {self.settings.neo4j_user!r}: check NEO4J_USER / NEO4J_PASSWORD"
                ) from exc
            except Neo4jError as exc:
                self._raise_unless_worth_retrying(exc, deadline, backoff)
                time.sleep(backoff)
                backoff *= 2
            except DriverError as exc:
                if not exc.is_retryable():
                    raise
                raise self.unavailable(exc) from exc
            except OSError as exc:
                raise self.unavailable(exc) from exc
            except UnicodeEncodeError as exc:  # a parameter Bolt cannot carry; nothing was sent
                raise InvalidTextError(
                    f"text that is not valid Unicode cannot be stored or searched "
                    f"({exc.reason}: U+{ord(exc.object[exc.start]):04X})"
                ) from exc

    def _raise_unless_worth_retrying(self, exc: Neo4jError, deadline: float, backoff: float) -> None:
        """Raise what a server error means (`exc` itself when nothing better is known), unless the work may
        succeed when run again after `backoff` seconds within the deadline."""
        if exc.code == AUTH_RATE_LIMIT:
            raise self._auth_failed(
                f"Neo4j at {self.uri} refuses logins of user {self.settings.neo4j_user!r} "
                f"for now (too many failed logins): check NEO4J_USER / NEO4J_PASSWORD "
                f"of every client"
            ) from exc
        if exc.code == DATABASE_NOT_FOUND:
            raise ConfigurationError(
                f"database {self.database!r} does not exist on {self.uri} (NEO4J_DATABASE; "
                f"Community edition has only 'neo4j')"
            ) from exc
        if "OutOfMemory" in (exc.code or "") or "MemoryLimit" in (exc.code or ""):
            raise self.out_of_memory(exc) from exc  # the same work would fail again
        if not (exc.is_retryable() or exc.code == ENTITY_NOT_FOUND):
            raise exc
        if time.monotonic() + backoff > deadline:
            if exc.code == ENTITY_NOT_FOUND or exc.code.startswith("Neo.TransientError.Transaction."):
                raise WriteConflictError(
                    f"the request kept conflicting with concurrent writes for "
                    f"{self.retry_seconds:g} s ({exc.code}); try again"
                ) from exc
            raise exc

    def out_of_memory(self, exc: Neo4jError) -> DatabaseMemoryError:
        return DatabaseMemoryError(
            f"Neo4j ran out of memory for one transaction ({exc.code}): raise its heap -- "
            f"KG_TOOLS_NEO4J_HEAP for the local server (then `kg-tools neo4j stop` and `start`), "
            f"server.memory.heap.max_size (and dbms.memory.transaction.total.max, db.memory.transaction.max) on "
            f"your own Neo4j -- or write smaller batches (KG_TOOLS_WRITE_BATCH_SIZE, now "
            f"{self.settings.write_batch_size}; KG_TOOLS_VECTOR_WRITE_BATCH_SIZE, now "
            f"{self.settings.vector_write_batch_size})"
        )

    def _auth_failed(self, message: str) -> ConfigurationError:
        """Remember a rejected login: calls in the next `auth_backoff_seconds` fail at once with it."""
        error = ConfigurationError(message)
        with self._auth_lock:
            self._auth_failure = (time.monotonic() + self.auth_backoff_seconds, error)
        return error

    def _claim_login(self) -> tuple | None:
        """After a rejected login: raise the remembered error until its time is up; then let exactly
        one call log in again (returns its claim) while the others keep failing at once."""
        if self._auth_failure is None:  # the common case: no lock taken
            return None
        with self._auth_lock:
            if self._auth_failure is None:
                return None
            until, error = self._auth_failure
            left = until - time.monotonic()
            if left > 0:
                raise ConfigurationError(
                    f"{error} (a login failed; the next attempt in {left:.0f} s: KG_TOOLS_NEO4J_AUTH_BACKOFF_SECONDS)"
                )
            self._auth_failure = (time.monotonic() + self.auth_backoff_seconds, error)
            return self._auth_failure

    def unavailable(self, exc: BaseException) -> DatabaseUnavailableError:
        return DatabaseUnavailableError(
            f"Neo4j is not reachable at {self.uri} ({exc}); start it with `kg-tools neo4j start`"
        )


def _rows(tx: ManagedTransaction, cypher: str, params: dict) -> list[dict]:
    return [record.data() for record in tx.run(cypher, params)]
