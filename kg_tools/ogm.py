"""The object model of the graph (neomodel), for single-tool reads and for scripts and notebooks.

Bulk paths (load, retrieval, merge, inference, closures) stay in cypher/*.cypher. Labels: every tool is
:Tool plus :Core or :Regular, so a node read through `Tool.nodes` comes back as a `Core` or `Regular`
instance. The four dependency relationship types carry `DependsOn` properties; MERGED_INTO points a
merged tool at its canonical tool; a gateway (:Server) PROVIDES its tools. Usage (docs/python-api.md):

    from kg_tools import ogm
    graph = ogm.connect()                     # or ogm.bind(an existing kg_tools.graph.Graph)
    tool = ogm.Tool.nodes.get(name="get_weather")
    tool.kind, [(d.type, d.tool.name, d.rel.parameter_name) for d in tool.dependencies]

neomodel shares the driver and database of the `Graph` it is bound to; `read(graph, work)` runs
neomodel calls inside one neomodel read transaction (`db.read_transaction`, neomodel's public API) under
the graph's retry policy and errors, which is how the API and the MCP server use it (every thread: neomodel
keeps its transaction per context); `write(graph, work)` runs them inside one `db.write_transaction` that
holds the graph's write lock (kg_tools/write_lock.py), which is how PUT and DELETE /v1/tools/{name} write
one tool (kg_tools/tool_store.py).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from neo4j import Record
from neo4j.exceptions import DriverError, Neo4jError
from neomodel import (
    ArrayProperty,
    BooleanProperty,
    DateTimeNeo4jFormatProperty,
    FloatProperty,
    IntegerProperty,
    RelationshipFrom,
    RelationshipTo,
    StringProperty,
    StructuredNode,
    StructuredRel,
    db,
)
from neomodel.config import get_config

from kg_tools import write_lock
from kg_tools.cypher import query
from kg_tools.graph import Graph
from kg_tools.settings import Settings

T = TypeVar("T")
DEPENDENCY_TYPES = (
    "TOOL_DIRECTLY_DEPENDS_ON",
    "TOOL_INDIRECTLY_DEPENDS_ON",
    "PARAMETER_DIRECTLY_DEPENDS_ON",
    "PARAMETER_INDIRECTLY_DEPENDS_ON",
)
# The Tool relationship manager of each dependency type (Tool.tool_directly_depends_on, ...).
MANAGERS = {t: t.lower() for t in DEPENDENCY_TYPES}


class DependsOn(StructuredRel):
    """One of the four typed dependency edges (cypher/create_dependencies.cypher, deps_apply.cypher)."""

    reason = StringProperty()
    parameter_name = StringProperty()
    ord = IntegerProperty()  # listing order in the catalog; inferred edges from 1000
    original_type = StringProperty()  # the type as the catalog (or the inference run) gave it
    inferred = BooleanProperty()  # set by `kg-tools deps`; absent on hand-written edges
    run = StringProperty()  # the DependencyRun id of an inferred edge
    observed = BooleanProperty()  # a promoted observation of the gateway (kg_tools/deps/observed.py)
    confidence = FloatProperty()
    method = StringProperty()


class MergedInto(StructuredRel):
    """A merged member -> its canonical tool (cypher/merge_apply.cypher)."""

    run = StringProperty()  # the MergeRun id
    score = FloatProperty()
    method = StringProperty()
    reason = StringProperty()


class Tool(StructuredNode):
    """A :Tool node (cypher/upsert_tools.cypher). Read it; write tools with `kg-tools load` or the API."""

    __label__ = "Tool"

    name = StringProperty(index=True, required=True)  # unique within its catalog (schema/)
    description = StringProperty()
    func_type = StringProperty()  # 'core' or 'regular' (also the :Core / :Regular label)
    catalog = StringProperty(index=True)
    spec = StringProperty()  # the catalog's JSON for this tool, returned unchanged by the API
    spec_hash = StringProperty()
    name_words = StringProperty()
    param_text = StringProperty()
    field = StringProperty()
    # What real catalogs say (kg_tools.ingest.node_facts); the full output schema stays in `spec`.
    title = StringProperty()
    http_method = StringProperty()
    http_path = StringProperty()
    tags = ArrayProperty(StringProperty())
    deprecated = BooleanProperty()
    has_output_schema = BooleanProperty()
    read_only_hint = BooleanProperty()
    destructive_hint = BooleanProperty()
    idempotent_hint = BooleanProperty()
    open_world_hint = BooleanProperty()
    embedding = ArrayProperty(FloatProperty())
    embedding_model = StringProperty()
    # `kg-tools core detect` (kg_tools/core_tools.py): the utility kind, why, and 'detected' or 'catalog'.
    core_kind = StringProperty()
    core_reason = StringProperty()
    core_source = StringProperty()
    # Set while the tool belongs to a catalog version being loaded (kg_tools/staged_load.py): readers
    # skip it until its catalog's `current` reaches it (`live`); removed once that version is settled.
    version = IntegerProperty()
    # Maintained by kg_tools.closure: every transitive dependency and the element ids of the edges used.
    closure = ArrayProperty(StringProperty())
    closure_via = ArrayProperty(StringProperty())
    # `kg-tools enrich` (the texts themselves are (:Question)-[:ASKS_FOR]->(:Tool) nodes).
    enriched_description = StringProperty()
    enrichment_topics = ArrayProperty(StringProperty())
    enrichment_model = StringProperty()
    enrichment_created = DateTimeNeo4jFormatProperty()
    enrichment_spec_hash = StringProperty()
    enrichment_embedding_model = StringProperty()

    tool_directly_depends_on = RelationshipTo("Tool", "TOOL_DIRECTLY_DEPENDS_ON", model=DependsOn)
    tool_indirectly_depends_on = RelationshipTo("Tool", "TOOL_INDIRECTLY_DEPENDS_ON", model=DependsOn)
    parameter_directly_depends_on = RelationshipTo("Tool", "PARAMETER_DIRECTLY_DEPENDS_ON", model=DependsOn)
    parameter_indirectly_depends_on = RelationshipTo("Tool", "PARAMETER_INDIRECTLY_DEPENDS_ON", model=DependsOn)
    merged_into = RelationshipTo("Tool", "MERGED_INTO", model=MergedInto)  # to the canonical tool
    merged_members = RelationshipFrom("Tool", "MERGED_INTO", model=MergedInto)  # tools merged into this one
    servers = RelationshipFrom("Server", "PROVIDES")  # the gateway upstream serving it (kg-tools gateway)

    @property
    def kind(self) -> str:
        return "core" if self.func_type == "core" else "regular"

    @property
    def live(self) -> bool:
        """False for a tool of a catalog version not switched in yet (a load still writing it)."""
        if self.version is None:
            return True
        catalog = Catalog.nodes.get_or_none(name=self.catalog)
        return catalog is not None and (catalog.current or 0) >= self.version

    def depends_on(self, type: str) -> Any:
        """The relationship manager of one of the four dependency types."""
        return getattr(self, MANAGERS[type])

    def spec_json(self) -> dict[str, Any]:
        """The tool as its catalog gave it (a node without a stored spec: name and description)."""
        return json.loads(self.spec) if self.spec else {"name": self.name, "description": self.description or ""}

    @property
    def dependencies(self) -> list[DependencyLink]:
        """The direct dependencies (one per typed edge, parallel edges included), in listing order."""
        rows, _ = db.cypher_query(
            query("tool_dependencies"), {"catalog": self.catalog, "name": self.name}, resolve_objects=True
        )
        return [DependencyLink(type=rel_type, tool=target, rel=rel) for rel_type, rel, target in rows]


class Core(Tool):
    """A :Tool:Core node (func_type 'core')."""

    __label__ = "Core"


class Regular(Tool):
    """A :Tool:Regular node (func_type 'regular')."""

    __label__ = "Regular"


class Catalog(StructuredNode):
    """A catalog's node (kg_tools/catalog_store.py, kg_tools/staged_load.py): metadata and versions."""

    __label__ = "Catalog"

    name = StringProperty(unique_index=True, required=True)
    source = StringProperty()
    created = StringProperty()  # ISO 8601, UTC
    last_load = StringProperty()
    last_load_kind = StringProperty()  # load | sync | import | put
    current = IntegerProperty()  # the version readers see
    pending = IntegerProperty()  # the version a running load is writing (None: no load running)
    pending_at = StringProperty()  # that load's last batch
    version_seq = IntegerProperty()


class Server(StructuredNode):
    """A gateway upstream MCP server (cypher/gateway_server_upsert.cypher); its catalog is its name."""

    __label__ = "Server"

    name = StringProperty(unique_index=True, required=True)
    title = StringProperty()
    version = StringProperty()
    instructions = StringProperty()
    embedding = ArrayProperty(FloatProperty())
    embedding_model = StringProperty()
    state_hash = StringProperty()
    gateways = ArrayProperty(StringProperty())  # the gateways that serve it (kg_tools/gateway/sync.py)

    tools = RelationshipTo("Tool", "PROVIDES")


# An inflated StructuredRel keeps properties and ids, not its type: Dependency carries the type.
@dataclass(frozen=True)
class DependencyLink:
    type: str  # one of DEPENDENCY_TYPES
    tool: Tool  # the dependency (a Core or Regular)
    rel: DependsOn  # reason, parameter_name, ord, inferred, run, confidence, method


_binding = threading.Lock()


def bind(graph: Graph) -> Graph:
    """Point neomodel at `graph`'s driver and database (one connection pool for the whole process).
    The API and the MCP server call it at start-up; it does nothing when already bound to `graph`."""
    with _binding:
        if db.driver is not graph.driver:
            get_config().database_name = graph.database  # also for contexts that start later
            try:
                db.set_connection(driver=graph.driver)  # also asks the server for its version
            except (Neo4jError, DriverError, OSError):
                pass  # Neo4j down: the driver is set; the version is asked on first use
        db._database_name = graph.database  # per context in neomodel: set for the caller's context too
    return graph


def connect(settings=None) -> Graph:
    """For scripts and notebooks: a `Graph` from the settings (NEO4J_* / KG_TOOLS_*), bound to neomodel."""
    return bind(Graph.connect(settings or Settings()))


def read(graph: Graph, work: Callable[[], T]) -> T:
    """`work()` (neomodel calls) inside ONE neomodel read transaction (`db.read_transaction`) on `graph`'s
    driver and database, under the graph's retry policy and errors (503 when Neo4j is down), on any thread."""
    bind(graph)

    def attempt() -> T:
        with db.read_transaction:
            return work()

    return graph.retrying(attempt)


def write(graph: Graph, work: Callable[[Any], T]) -> T:
    """`work(tx)` (neomodel calls, and Cypher on `tx`) inside ONE neomodel write transaction
    (`db.write_transaction`) that takes the graph's write lock first (kg_tools/write_lock.py): retried as a
    whole under the graph's retry policy, rolled back on an error. `tx.run` goes through `db.cypher_query`,
    so neomodel and the Cypher of kg-tools (closures, catalog records) share that one transaction."""
    bind(graph)

    def attempt() -> T:
        with db.write_transaction:
            tx = CypherTx()
            write_lock.acquire(tx)
            return work(tx)

    return graph.retrying(attempt)


class CypherResult:
    """The records of one `CypherTx.run`, read as a driver result is read here (iterate, single, data)."""

    def __init__(self, rows: list[list[Any]], keys: tuple[str, ...]):
        self.records = [Record(zip(keys, row)) for row in rows]

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def single(self) -> Record | None:
        return self.records[0] if self.records else None

    def data(self) -> list[dict[str, Any]]:
        return [r.data() for r in self.records]

    def consume(self) -> None:
        """Nothing left to fetch: db.cypher_query has read every record."""


class CypherTx:
    """`tx.run(cypher, **params)` in neomodel's current transaction (`db.cypher_query`), for the code that
    takes a driver transaction (kg_tools.closure, kg_tools.catalog_store, kg_tools.write_lock)."""

    def run(self, cypher: str, parameters: dict[str, Any] | None = None, **params: Any) -> CypherResult:
        rows, keys = db.cypher_query(cypher, {**(parameters or {}), **params})
        return CypherResult(rows, tuple(keys))
