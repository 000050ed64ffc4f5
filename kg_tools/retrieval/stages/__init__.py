"""Pluggable retrieval stages (issue 5): query transformation, fusion, enriched search, rerankers,
duplicate removal and self-check. `builtin` registers them all with the pipeline."""
