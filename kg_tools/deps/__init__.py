"""Dependency inference for catalogs without edges: candidates -> offline/LLM judge -> typed edges
(inferred: true, run) -> undo by run. `recover` + `infer_graph` + `apply_results` are what the CLI and the REST
API call (recover first: the proposals must not count the edges of a run a crash left pending)."""

from __future__ import annotations

import sys

from tqdm import tqdm

from kg_tools.deps.infer import DEFAULT_MIN_CONFIDENCE, InferenceResult, infer_catalog
from kg_tools.deps.offline import Examples
from kg_tools.deps.store import (
    AppliedRun,
    apply_run,
    catalog_edges,
    catalog_tools,
    list_runs,
    recover,
    run_id_for,
    undo_run,
)
from kg_tools.errors import CatalogNotFoundError, ConfigurationError
from kg_tools.llm import llm_from_settings

__all__ = [
    "DEFAULT_MIN_CONFIDENCE",
    "InferenceResult",
    "apply_results",
    "infer_graph",
    "list_runs",
    "recover",
    "undo_run",
]


def infer_graph(
    graph,
    embedder,
    settings,
    *,
    catalog: str | None = None,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
    method: str = "auto",
    progress: bool = False,
) -> list[InferenceResult]:
    """Proposals for one catalog (or each catalog in turn); hand-written edges of the catalog are the
    labelled examples. method: auto (the LLM when OPENAI_BASE_URL is set, else offline), offline, llm."""
    if method not in ("auto", "offline", "llm"):
        raise ConfigurationError(f"unknown inference method {method!r}: auto, offline or llm")
    llm = None if method == "offline" else llm_from_settings(settings)
    if method == "llm" and llm is None:
        raise ConfigurationError("method llm needs an LLM: set OPENAI_BASE_URL (or use --method offline)")
    groups = catalog_tools(graph, catalog)
    if catalog is not None and not groups:
        raise CatalogNotFoundError(catalog)
    results = []
    for name, tools in groups.items():
        hand, existing = catalog_edges(graph, name)
        bar = progress_bar(len(tools), f"deps infer {name}") if progress else None
        try:
            result = infer_catalog(
                tools,
                embedder,
                Examples(hand),
                existing=existing,
                min_confidence=min_confidence,
                llm=llm,
                catalog=name,
                progress=bar.update if bar else None,
            )
        finally:
            if bar:
                bar.close()
        if llm is None:
            result.notes.append(
                "offline: no LLM configured (OPENAI_BASE_URL unset)"
                if method == "auto"
                else "offline: --method offline"
            )
        results.append(result)
    return results


def progress_bar(total: int, label: str):
    """A tqdm bar on stderr (tools matched)."""
    return tqdm(total=total, desc=label, unit="tool", file=sys.stderr, leave=False)


def apply_results(graph, results: list[InferenceResult], min_confidence: float) -> list[AppliedRun]:
    """One run per catalog, each in its own transaction."""
    return [
        apply_run(
            graph, run_id_for(r.catalog, r.method, r.edges), r.catalog, r.method, min_confidence, r.edges, r.notes
        )
        for r in results
    ]
