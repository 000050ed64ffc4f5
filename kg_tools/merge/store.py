"""Store, list and undo merge runs. Each run is one transaction; undo restores the graph exactly.

A run is `(:MergeRun {id, created, theta, top_k, catalog, classifier, validator, writer, clusters,
merged, tools_before, tools_after, notes})`; `(:MergeRun)-[:UPDATED {previous}]->(canonical)` keeps the
canonical tool's previous description/spec/param_text (and vector) as JSON; every member gets
`(:Tool)-[:MERGED_INTO {run, score, method, reason}]->(canonical)`. The run id is a hash of the plan,
so applying the same plan twice changes nothing. Given the embedder, a merge re-embeds each canonical
tool from its new document (unified description and signature: `tool_document`, as a load would), so
search finds it by what it now stands for; undo puts its previous vector back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from pydantic import ConfigDict, Field

from kg_tools import closure
from kg_tools.cypher import query
from kg_tools.embeddings import PassageEmbedder
from kg_tools.errors import MergeRunNotFoundError, StalePlanError
from kg_tools.graph import Graph
from kg_tools.merge.plan import MergePlan
from kg_tools.results import Result
from kg_tools.tool_spec import ToolSpec, parameter_text, tool_document
from kg_tools.write_lock import serialized


class MergeRun(Result):
    """A `:MergeRun` node's properties (kg_tools/merge/store.py) and its MERGED_INTO links in the graph."""

    model_config = ConfigDict(extra="allow")
    id: str
    name: str | None = None
    created: str | None = None
    catalog: str | None = None
    theta: float | None = None
    top_k: int | None = None
    classifier: str | None = None
    validator: str | None = None
    writer: str | None = None
    tools_before: int | None = None
    tools_after: int | None = None
    candidates: int | None = None
    accepted_pairs: int | None = None
    clusters: int | None = None
    merged: int | None = None
    notes: list[str] | None = None
    links: int = Field(description="Its MERGED_INTO links still in the graph.")


class MergeUndone(Result):
    run: str
    restored: int = Field(description="Canonical tools restored.")
    unlinked: int = Field(description="MERGED_INTO links deleted.")


@dataclass
class ApplyResult:
    run_id: str
    applied: bool  # False: nothing to do (empty plan or the same plan already applied)
    clusters: int
    merged: int
    message: str


def canonical_vectors(plan: MergePlan, embedder: PassageEmbedder) -> dict[str, list[float]]:
    """Each canonical tool's new vector: its merged document embedded as a load embeds a tool."""
    docs = [tool_document(ToolSpec.model_validate(c.spec)) for c in plan.clusters]
    return {c.canonical: v.tolist() for c, v in zip(plan.clusters, embedder.embed(docs))} if docs else {}


def apply_plan(graph: Graph, plan: MergePlan, embedder: PassageEmbedder | None = None) -> ApplyResult:
    """Apply the plan in one transaction. With `embedder` the canonical tools are re-embedded (CLI, API
    and eval pass it); without, they keep their vectors."""
    run_id = plan.run_id
    if not plan.clusters:
        return ApplyResult(run_id, False, 0, 0, "nothing to merge: the plan has no clusters")
    names = sorted({n for c in plan.clusters for n in c.names})
    vectors = canonical_vectors(plan, embedder) if embedder is not None else {}

    def work(tx) -> ApplyResult:
        if tx.run(query("merge_run_get"), run_id=run_id).single()["run"] is not None:
            return ApplyResult(
                run_id, False, len(plan.clusters), len(plan.phi), f"run {run_id} is already applied: nothing changed"
            )
        stale = [r.data() for r in tx.run(query("merge_touched"), names=names, catalog=plan.catalog)]
        if stale:
            raise StalePlanError(
                f"the plan is stale: {len(stale)} tool(s) missing or already merged, e.g. "
                f"{[s['name'] for s in stale[:5]]}; make a new plan"
            )
        previous = {
            r["name"]: r.data()
            for r in tx.run(
                query("merge_read_canonicals"), names=[c.canonical for c in plan.clusters], catalog=plan.catalog
            )
        }
        canonicals = [
            {
                "name": c.canonical,
                "previous": json.dumps(
                    {k: previous[c.canonical][k] for k in ("description", "spec", "param_text")}
                    | ({k: previous[c.canonical][k] for k in ("embedding", "embedding_model")} if vectors else {}),
                    ensure_ascii=False,
                ),
                "description": c.description,
                "spec": json.dumps(c.spec, ensure_ascii=False),
                "param_text": parameter_text(ToolSpec.model_validate(c.spec)),
                "embedding": vectors.get(c.canonical),
                "embedding_model": embedder.name if embedder is not None else None,
            }
            for c in plan.clusters
        ]
        links = [
            {"member": m.name, "canonical": c.canonical, "score": m.score, "method": m.method, "reason": m.reason}
            for c in plan.clusters
            for m in c.members
        ]
        run = {k: v for k, v in plan.summary().items() if k not in ("run", "timing_s") and v is not None}
        run |= {
            "id": run_id,
            "name": run_id,
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "notes": plan.notes[:50],
        }
        tx.run(query("merge_apply"), run=run, canonicals=canonicals, links=links, catalog=plan.catalog).consume()
        closure.refresh(tx)  # MERGED_INTO changes the expansion of many tools: recompute all
        return ApplyResult(
            run_id,
            True,
            len(plan.clusters),
            len(links),
            f"applied {run_id}: {len(links)} tools merged into {len(plan.clusters)} canonical tools",
        )

    return serialized(graph, work)


def undo_run(graph: Graph, run_id: str) -> MergeUndone:
    def work(tx) -> MergeUndone:
        if tx.run(query("merge_run_get"), run_id=run_id).single()["run"] is None:
            raise MergeRunNotFoundError(run_id)
        restore = [
            {"name": r["name"]} | json.loads(r["previous"]) for r in tx.run(query("merge_undo_read"), run_id=run_id)
        ]
        counts = tx.run(query("merge_undo"), run_id=run_id, restore=restore).single().data()
        closure.refresh(tx)
        return MergeUndone(run=run_id, **counts)

    return serialized(graph, work)


def list_runs(graph: Graph) -> list[MergeRun]:
    return [MergeRun(**dict(r["run"]) | {"links": r["links"]}) for r in graph.read(query("merge_runs"))]


def current_phi(graph: Graph, catalog: str | None = None) -> dict[str, str]:
    return {r["member"]: r["canonical"] for r in graph.read(query("merge_phi"), catalog=catalog)}
