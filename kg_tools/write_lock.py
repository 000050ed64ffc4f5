"""The graph's write lock: kg-tools writes that change tools, dependency edges or merges run one after
the other (docs/concurrency.md).

Neo4j reads at read-committed isolation: a write transaction that recomputes closures (kg_tools/closure.py)
or checks which catalog owns a name does not see a concurrent writer's uncommitted changes, and that
writer does not see its own. Both then commit closures computed from a graph that no longer exists,
or both take the same new name. So every such write takes ONE exclusive lock first, in its own
transaction (`serialized`): while it holds the lock, every other writer has committed or is waiting,
and what it reads after taking it is the committed graph plus its own writes. Reads never wait for it.
"""

from __future__ import annotations

from typing import TypeVar

from kg_tools.cypher import query
from kg_tools.graph import Graph, Work

T = TypeVar("T")
LOCK_NAME = "tools"


def acquire(tx) -> None:
    """Take the write lock in transaction `tx` (held until it ends; taking it again is a no-op)."""
    tx.run(query("write_lock"), name=LOCK_NAME).consume()


def serialized(graph: Graph, work: Work[T]) -> T:
    """`work(tx)` in one write transaction that takes the write lock before anything else (so it reads
    nothing a concurrent writer is about to change). Retried as `Graph.transaction` retries."""

    def locked(tx) -> T:
        acquire(tx)
        return work(tx)

    return graph.transaction(locked)
