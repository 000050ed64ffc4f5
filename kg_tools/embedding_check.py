"""Which embedding models made the graph's vectors, against the configured one.

Models of the same dimension share the vector index, so nothing in Neo4j stops a query embedded by
one model from being searched among vectors of another (after a change of KG_TOOLS_EMBED_MODEL or of
the default model): every result would be unrelated. Loads refuse to mix models (ingest.py);
retrieval (Pipeline) and /readyz refuse to search a graph whose vectors another model made."""

from __future__ import annotations

from kg_tools.cypher import query
from kg_tools.errors import SchemaMismatchError


def vector_models(graph) -> dict[str, int]:
    """{model: tools} over the graph's tool vectors."""
    return {r["model"]: r["tools"] for r in graph.read(query("vector_models"))}


def mismatch(others: dict[str, int], model: str, what: str = "nothing was written") -> SchemaMismatchError:
    found = ", ".join(f"{n} tool(s) by {m!r}" for m, n in sorted(others.items()))
    return SchemaMismatchError(
        f"the graph's vectors were made by another embedding model ({found}) but the configured one is "
        f"{model!r}; {what}. Set KG_TOOLS_EMBED_MODEL to the graph's model, or move the graph "
        f"to {model!r} with `kg-tools schema reindex` (re-embeds every tool and enrichment question)."
    )


def check_graph_model(graph, model: str) -> bool:
    """Raise SchemaMismatchError when tool vectors of another model are in the graph; True when the
    graph holds vectors and all are `model`'s (nothing to check again), False when it holds none."""
    models = vector_models(graph)
    others = {m: n for m, n in models.items() if m != model}
    if others:
        raise mismatch(others, model, "searching them with it would return unrelated tools")
    return bool(models)
