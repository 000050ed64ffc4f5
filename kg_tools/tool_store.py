"""Single-tool reads and writes (used by the REST API): list, get, dependencies, put, delete.

Reads of one node and deletes go through neomodel (`kg_tools.models`); the list, the dependency
expansion and the transactional PUT use cypher/ files with $parameters only. Neo4j being
unreachable always surfaces as DatabaseUnavailableError.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from neo4j import READ_ACCESS, Driver
from neo4j.exceptions import ServiceUnavailable, SessionExpired

from kg_tools import models
from kg_tools.catalog import DEPENDENCY_TYPES, validate_catalog, tool_document
from kg_tools.cypher import query
from kg_tools.embeddings import Embedder
from kg_tools.errors import CatalogError, DatabaseUnavailableError, ToolNotFoundError
from kg_tools.ingest import tool_row
from kg_tools.retrieval import queries
from kg_tools.retrieval.functions import openai_function

DEFAULT_CATALOG = "api"
_bind_lock = threading.Lock()


@contextmanager
def neo4j_errors(uri: str):
    """Turn a lost/refused connection into DatabaseUnavailableError (-> HTTP 503, CLI message)."""
    try:
        yield
    except (ServiceUnavailable, SessionExpired, ConnectionError) as exc:
        raise DatabaseUnavailableError(f"Neo4j is not reachable at {uri}: {exc}") from exc


@dataclass
class ToolStore:
    driver: Driver
    database: str = "neo4j"
    uri: str = ""

    # -- helpers ---------------------------------------------------------------------------
    def _read(self, name: str, **params) -> list[dict]:
        """Auto-commit read: one round trip and no retry loop (a dead server fails fast)."""
        with neo4j_errors(self.uri), self.driver.session(database=self.database,
                                                         default_access_mode=READ_ACCESS) as session:
            return [r.data() for r in session.run(query(name), params)]

    def _bind(self) -> None:
        """neomodel's connection is process-wide: point it at our driver if it points elsewhere."""
        with _bind_lock:
            if models.db.driver is not self.driver:
                with neo4j_errors(self.uri):
                    models.bind(self.driver)

    def _node(self, name: str) -> models.Tool:
        self._bind()
        with neo4j_errors(self.uri):
            node = models.Tool.nodes.get_or_none(name=name)
        if node is None:
            raise ToolNotFoundError(name)
        return node

    # -- reads -----------------------------------------------------------------------------
    def list_tools(self, offset: int = 0, limit: int = 50, catalog: str | None = None,
                   kind: str | None = None) -> dict[str, Any]:
        row = self._read("list_tools", offset=offset, limit=limit, catalog=catalog, kind=kind)[0]
        tools = [{**t, "kind": "core" if t["kind"] == "core" else "regular"} for t in row["page"]]
        return {"total": row["total"], "offset": offset, "limit": limit, "tools": tools}

    def get_tool(self, name: str) -> dict[str, Any]:
        node = self._node(name)
        spec = node.spec_json()
        return {"name": node.name, "kind": node.kind, "catalog": node.catalog, "spec": spec,
                "function": openai_function(spec)}

    def dependencies(self, name: str, depth: int, edge_types: list[str] | None = None) -> dict[str, Any]:
        """What retrieval would add after this tool as a seed: depth-first, unique, with the edge used."""
        self._node(name)  # 404 before anything else
        rows = self._read_expansion(name, depth, edge_types)
        deps = rows[0]["deps"] if rows else []
        return {"name": name, "depth": depth, "dependencies": [
            {"name": d["name"], "kind": "core" if d["func_type"] == "core" else "regular", "via": d["via"],
             "members": sorted(d.get("members") or [])} for d in deps]}

    def _read_expansion(self, name: str, depth: int, edge_types: list[str] | None) -> list[dict]:
        cypher = queries.expand_query(depth)
        params = {"seeds": [{"name": name, "score": None}], "edge_types": edge_types or DEPENDENCY_TYPES,
                  "prefer_direct": False, "drop_parameter_patterns": [], "d_limit": 100_000}
        with neo4j_errors(self.uri), self.driver.session(database=self.database,
                                                         default_access_mode=READ_ACCESS) as session:
            return [r.data() for r in session.run(cypher, params)]

    # -- writes ----------------------------------------------------------------------------
    def put_tool(self, name: str, raw: Any, embedder: Embedder, catalog: str | None = None) -> dict[str, Any]:
        """Create or replace one tool: validate, embed, then node + outgoing edges in ONE transaction.

        Returns {"created": bool, "tool": <get_tool view>}. Any failure leaves the graph unchanged.
        """
        if not isinstance(raw, dict):
            raise CatalogError("the request body must be one tool object", [f"got {type(raw).__name__}"])
        body_name = str(raw.get("name", "")).strip()
        if body_name != name:
            raise CatalogError("the tool name in the body must match the path",
                               [f"name: body has {body_name!r}, path has {name!r}"])
        targets = [d.get("name") for d in raw.get("depends_on") or [] if isinstance(d, dict)]
        existing = {r["name"]: r["catalog"] for r in
                    self._read("existing_tools", names=[name] + [t for t in targets if isinstance(t, str)])}
        validated = validate_catalog([raw], known_names=set(existing))
        spec = validated.specs[0]
        row = tool_row(spec, raw, catalog or existing.get(name) or DEFAULT_CATALOG)
        row["embedding"] = embedder.embed([tool_document(spec)])[0].tolist()
        row["embedding_model"] = embedder.name
        edges = [e.as_row() for e in validated.edges]
        self._write_tool(row, edges)
        return {"created": name not in existing, "tool": self.get_tool(name),
                "warnings": validated.report.warnings}

    def _write_tool(self, row: dict, edges: list[dict]) -> None:
        with neo4j_errors(self.uri), self.driver.session(database=self.database) as session:
            with session.begin_transaction() as tx:
                tx.run(query("upsert_tools"), rows=[row]).consume()
                tx.run(query("delete_outgoing_dependencies"), names=[row["name"]]).consume()
                tx.run(query("create_dependencies"), edges=edges).consume()
                # A target deleted since validation would silently lose its edge: check, else roll back.
                missing = tx.run(query("missing_dependency_targets"),
                                 targets=[e["target"] for e in edges]).single()["missing"]
                if missing:
                    tx.rollback()
                    raise CatalogError(f"tool {row['name']!r} rejected, nothing written",
                                       [f"dangling dependency target: {row['name']} -> {m} ({m!r} is not a tool)"
                                        for m in missing])
                tx.commit()

    def delete_tool(self, name: str) -> None:
        """Delete the node and all its relationships (in and out)."""
        node = self._node(name)
        with neo4j_errors(self.uri):
            node.delete()


def store_from(driver: Driver, settings) -> ToolStore:
    return ToolStore(driver, settings.neo4j_database, settings.neo4j_uri)
