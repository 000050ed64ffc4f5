"""Retrieval stages: search and expansion (search.py), ordering (order.py), query transformation,
fusion, enriched search, rerankers, duplicate removal and self-check. kg_tools/retrieval/plan.py
lists the ones a request may name."""
