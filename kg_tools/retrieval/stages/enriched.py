"""`enriched`: search the tools' enrichment vectors (synthetic questions, expanded descriptions from
`kg-tools enrich`) together with the tools' own vectors; a tool scores the max over its vectors."""

from __future__ import annotations

from functools import lru_cache

from kg_tools.cypher import query
from kg_tools.retrieval.context import SearchSource, Stage

QUESTION_INDEX = "question_embedding"
QUESTION_CANDIDATES_FACTOR = 4  # a tool has several enrichment vectors: ask the index for more hits


@lru_cache(maxsize=1)
def enriched_search_query() -> str:
    return "\n".join([query("search_enriched_vector"), query("seeds_canonical"), query("return_seeds")])


class EnrichedSearch(Stage):
    name = "enriched"
    writes = frozenset({"source"})

    def run(self, ctx):
        if ctx.request.mode not in ("vector", "hybrid-boost"):  # hybrid-boost: the vector leg alone
            ctx.note(
                self.name,
                f"skipped: enriched search uses the vector index; mode {ctx.request.mode!r} "
                "searched without enrichment vectors",
                fallback=True,
            )
            return
        status = self.env.run_query(query("enrichment_status"))
        n = status[0]["n"] if status else 0
        if not n:
            ctx.note(self.name, "skipped: no enrichment in the graph (run `kg-tools enrich`)", fallback=True)
            return
        model = status[0]["embedding_model"]
        if model != self.env.embedder.name:
            ctx.note(
                self.name,
                f"skipped: enrichment vectors were embedded with {model!r}, the query embedder is "
                f"{self.env.embedder.name!r} (re-run `kg-tools enrich`)",
                fallback=True,
            )
            return
        ctx.source = SearchSource(
            enriched_search_query(),
            {"question_index": QUESTION_INDEX, "question_candidates_factor": QUESTION_CANDIDATES_FACTOR},
        )
        ctx.note(self.name, f"tool vectors + {n} enrichment vectors, max per tool")
